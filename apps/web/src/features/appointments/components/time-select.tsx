import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { slotsQueryOptions } from '../api/appointments-api.ts';

/**
 * The start times the provider's working hours offer on the date for the duration, in the practice's step
 * (availableSlots, decision 045: the server's own rule, so the list is exactly what it accepts), taken ones and
 * those on time off marked and not choosable. `keep` stays choosable (the appointment's own current time when
 * moving it), even if the hours or the step have changed since.
 */
export function TimeSelect({
  providerId,
  date,
  duration,
  value,
  onChange,
  error,
  keep,
  label,
}: {
  providerId: string | null;
  date: string;
  duration: number;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string | undefined;
  keep?: string | undefined;
  label: string;
}) {
  const { t } = useTranslation('appointments');
  const ready = providerId !== null && /^\d{4}-\d{2}-\d{2}$/.test(date);
  const slots = useQuery({ ...slotsQueryOptions(providerId ?? '', date, duration), enabled: ready });
  const offered = ready ? (slots.data ?? []) : [];
  const data = offered.map(({ time, state }) => {
    if (state === 'free' || time === keep) return { value: time, label: time };
    return {
      value: time,
      label: `${time} (${t(state === 'taken' ? 'form.taken' : 'form.unavailable')})`,
      disabled: true,
    };
  });
  if (keep && !data.some((option) => option.value === keep)) {
    data.push({ value: keep, label: keep });
    data.sort((a, b) => (a.value < b.value ? -1 : 1));
  }
  const loaded = ready && slots.isSuccess;
  const none = loaded && data.every((option) => option.disabled === true);
  return (
    <Select
      label={label}
      placeholder={!ready ? t('form.timeNeedsDate') : !loaded ? t('form.timesLoading') : t('form.timePlaceholder')}
      description={none ? t('form.noTimes') : undefined}
      data={data}
      value={value}
      onChange={onChange}
      error={error}
      required
      disabled={!ready}
      allowDeselect={false}
      maxDropdownHeight={260}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
