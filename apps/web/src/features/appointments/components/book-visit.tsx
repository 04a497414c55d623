import { Alert, Button, Group, Paper, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import { APPOINTMENT_REASON_MAX, BookAppointmentInputSchema, type AppointmentType } from '@telehealth/shared';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { PhoneLinkedText } from '../../../components/phone-linked-text.tsx';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromZod } from '../../../lib/form-errors.ts';
import { formatDay } from '../../../lib/practice-dates.ts';
import { errorText } from '../../../lib/error-text.ts';
import type { Appointment } from '../api/appointments-api.ts';
import { useBookAppointment, type BookingPolicyView } from '../api/patient-booking-api.ts';
import { MySlotPicker } from './my-slot-picker.tsx';

/**
 * Book a new visit with one's own provider: the kind of visit, a date, one of the open times the server offers,
 * and the reason; then a screen that says whether it is booked or requested.
 */
export function BookVisit({ policy, zone, onDone }: { policy: BookingPolicyView; zone: string; onDone: () => void }) {
  const { t, i18n } = useTranslation('my-appointments');
  const book = useBookAppointment();
  const [type, setType] = useState<AppointmentType | ''>(
    policy.appointmentTypes.length === 1 ? policy.appointmentTypes[0]! : '',
  );
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [booked, setBooked] = useState<Appointment | null>(null);

  if (policy.appointmentTypes.length === 0) {
    return (
      <Alert color="blue" variant="light">
        {policy.clinicPhone ? (
          <PhoneLinkedText text={t('book.nonePhone', { phone: policy.clinicPhone })} phone={policy.clinicPhone} />
        ) : (
          t('book.noneWrite')
        )}
      </Alert>
    );
  }

  if (booked) {
    const pending = booked.status === 'pending';
    const values = {
      when: `${formatDay(booked.date, i18n.language)}, ${booked.time}`,
      type: t(`type.${booked.appointmentType as AppointmentType}`),
    };
    return (
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm" role="status">
          <Title order={2} size="h3">
            {pending ? t('book.requestedTitle') : t('book.bookedTitle')}
          </Title>
          <Text>{pending ? t('book.requestedBody', values) : t('book.bookedBody', values)}</Text>
          <Button variant="default" w="fit-content" onClick={onDone}>
            {t('book.back')}
          </Button>
        </Stack>
      </Paper>
    );
  }

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = { appointmentType: type, date, time, reason };
    const parsed = BookAppointmentInputSchema.safeParse(input);
    const problems: Record<string, string> = {};
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrorsFromZod(parsed.error))) {
        problems[field] = errorText(message);
      }
    }
    if (!time && !problems['date']) problems['time'] = t('slots.pickTime');
    setErrors(problems);
    if (!parsed.success || !time) return;
    // The server's refusals (a rule, a time just taken) are said above the button, translated by their id.
    book.mutate(parsed.data, { onSuccess: setBooked });
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="book-visit-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h3" id="book-visit-title">
            {t('book.title')}
          </Title>
          <Text size="sm">
            {t('book.intro', {
              count: policy.minNoticeHours,
              notice: policy.minNoticeHours,
              minutes: policy.duration,
              days: policy.horizonDays,
            })}
          </Text>
          {policy.mode === 'request' ? <Text size="sm">{t('book.requestMode')}</Text> : null}
          <Radio.Group
            label={t('book.type')}
            value={type}
            onChange={(value) => setType(value)}
            error={errors['appointmentType']}
            required
          >
            <Group gap="md" mt="xs">
              {policy.appointmentTypes.map((kind) => (
                <Radio key={kind} value={kind} label={t(`type.${kind}`)} />
              ))}
            </Group>
          </Radio.Group>
          <MySlotPicker
            policy={policy}
            zone={zone}
            date={date}
            time={time}
            onDate={setDate}
            onTime={setTime}
            dateError={errors['date'] ?? null}
            timeError={errors['time'] ?? null}
          />
          <Textarea
            label={t('book.reason')}
            description={t('book.reasonHint')}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            error={errors['reason']}
            maxLength={APPOINTMENT_REASON_MAX}
            autosize
            minRows={2}
            required
          />
          {book.isError ? (
            <Alert color="red" variant="light" role="alert">
              <PhoneLinkedText text={describeError(book.error)} phone={policy.clinicPhone} />
            </Alert>
          ) : null}
          <Group gap="sm">
            <Button type="submit" loading={book.isPending}>
              {policy.mode === 'request' ? t('book.submitRequest') : t('book.submit')}
            </Button>
            <Button variant="default" onClick={onDone}>
              {t('book.back')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
