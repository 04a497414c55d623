import { Alert, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { earliestBooking, lastBookableDate, todayIn, zonedDateTime } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { formatShortDay } from '../../../lib/practice-dates.ts';
import { mySlotsQueryOptions, type BookingPolicyView } from '../api/patient-booking-api.ts';

/**
 * A date within the practice's booking window, then the open times of the patient's own provider on it, loaded
 * from the server (the minimum notice, the horizon and the provider's hours and visits already applied).
 */
export function MySlotPicker({
  policy,
  zone,
  date,
  time,
  onDate,
  onTime,
  dateError,
  timeError,
}: {
  policy: BookingPolicyView;
  zone: string;
  date: string;
  time: string;
  onDate: (date: string) => void;
  onTime: (time: string) => void;
  dateError?: string | null;
  timeError?: string | null;
}) {
  const { t, i18n } = useTranslation('my-appointments');
  const today = todayIn(zone);
  // The first day the minimum notice leaves open (its times, if any are left, come from the provider's hours).
  const first = zonedDateTime(earliestBooking(new Date(), policy), zone).date;
  const last = lastBookableDate(today, policy);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(date) && date >= first && date <= last;
  const slots = useQuery({ ...mySlotsQueryOptions(date), enabled: valid });
  const free = slots.data?.filter((slot) => slot.available) ?? [];
  return (
    <Stack gap="sm">
      <TextInput
        type="date"
        label={t('slots.date')}
        description={t('slots.dateHint', {
          first: formatShortDay(first, i18n.language),
          last: formatShortDay(last, i18n.language),
        })}
        min={first}
        max={last}
        value={date}
        onChange={(event) => {
          onDate(event.currentTarget.value);
          onTime('');
        }}
        error={dateError}
        required
        maw={260}
      />
      {!valid ? (
        <Text size="sm">{t('slots.pickDate')}</Text>
      ) : slots.isPending ? (
        <LoadingLine label={t('slots.loading')} />
      ) : slots.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(slots.error)}
        </Alert>
      ) : free.length === 0 ? (
        <Text size="sm" role="status">
          {t('slots.none')}
        </Text>
      ) : (
        <Radio.Group label={t('slots.times')} value={time} onChange={onTime} error={timeError} required>
          <Group gap="xs" mt="xs" data-testid="open-times">
            {free.map((slot) => (
              <Radio.Card key={slot.time} value={slot.time} radius="sm" p="xs" miw={84} aria-label={slot.time}>
                <Group gap={6} wrap="nowrap">
                  <Radio.Indicator size="xs" />
                  <Text size="sm">{slot.time}</Text>
                </Group>
              </Radio.Card>
            ))}
          </Group>
        </Radio.Group>
      )}
    </Stack>
  );
}
