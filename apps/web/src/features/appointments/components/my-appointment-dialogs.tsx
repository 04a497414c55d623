import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { PhoneLinkedText } from '../../../components/phone-linked-text.tsx';
import { afterMutation } from '../../../lib/after-mutation.ts';
import { describeError } from '../../../lib/errors.ts';
import { coded, errorText } from '../../../lib/error-text.ts';
import type { Appointment } from '../api/appointments-api.ts';
import {
  useCancelMyAppointment,
  useRescheduleMyAppointment,
  type BookingPolicyView,
} from '../api/patient-booking-api.ts';
import { MySlotPicker } from './my-slot-picker.tsx';

/** Cancel a visit, with an optional reason. */
export function CancelDialog({
  appointment,
  summary,
  onClose,
  onDone,
}: {
  appointment: Appointment;
  summary: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation(['my-appointments', 'common']);
  const cancel = useCancelMyAppointment();
  const [reason, setReason] = useState('');
  return (
    <Modal opened onClose={onClose} title={t('cancel.title')} closeButtonProps={{ 'aria-label': t('cancel.keep') }}>
      <Stack gap="sm">
        <Text>{summary}</Text>
        <Textarea
          label={t('cancel.reason')}
          value={reason}
          maxLength={500}
          onChange={(event) => setReason(event.currentTarget.value)}
          autosize
          minRows={2}
        />
        {cancel.isError ? (
          <Alert color="red" variant="light" role="alert">
            <PhoneLinkedText text={describeError(cancel.error)} />
          </Alert>
        ) : null}
        <Group gap="sm" justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel.keep')}
          </Button>
          <Button
            color="red"
            loading={cancel.isPending}
            onClick={() =>
              afterMutation(cancel.mutateAsync({ id: appointment.id, reason: reason.trim() || null }), onDone)
            }
          >
            {t('cancel.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Move a visit to another free time the policy allows. */
export function RescheduleDialog({
  appointment,
  policy,
  zone,
  onClose,
  onDone,
}: {
  appointment: Appointment;
  policy: BookingPolicyView;
  zone: string;
  onClose: () => void;
  onDone: (moved: Appointment) => void;
}) {
  const { t } = useTranslation(['my-appointments', 'common']);
  const reschedule = useRescheduleMyAppointment();
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [missing, setMissing] = useState(false);
  return (
    <Modal opened onClose={onClose} title={t('reschedule.title')} closeButtonProps={{ 'aria-label': t('cancel.keep') }}>
      <Stack gap="sm">
        <MySlotPicker
          policy={policy}
          zone={zone}
          date={date}
          time={time}
          onDate={setDate}
          onTime={(value) => {
            setTime(value);
            setMissing(false);
          }}
          dateError={missing && !date ? errorText(coded('appointmentMessages.selectDate')) : null}
          timeError={missing && date ? t('slots.pickTime') : null}
        />
        {reschedule.isError ? (
          <Alert color="red" variant="light" role="alert">
            <PhoneLinkedText text={describeError(reschedule.error)} />
          </Alert>
        ) : null}
        <Group gap="sm" justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel.keep')}
          </Button>
          <Button
            loading={reschedule.isPending}
            onClick={() => {
              if (!date || !time) {
                setMissing(true);
                return;
              }
              afterMutation(reschedule.mutateAsync({ id: appointment.id, date, time }), onDone);
            }}
          >
            {t('reschedule.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
