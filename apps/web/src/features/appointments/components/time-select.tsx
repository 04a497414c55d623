import { Select } from '@mantine/core';
import { APPOINTMENT_TIMES } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { slotsQueryOptions } from '../api/appointments-api.ts';

/**
 * The specification's times (every 30 minutes, 08:00-17:30), each marked taken or unavailable once a provider, a
 * date and a duration are known (availableSlots); those cannot be chosen. `keep` stays choosable (the
 * appointment's own current time when moving it).
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
  const stateOf = new Map((slots.data ?? []).map((s) => [s.time, s.state]));
  const data = APPOINTMENT_TIMES.map((time) => {
    const state = stateOf.get(time);
    if (!state || state === 'free' || time === keep) return { value: time, label: time };
    // Outside working hours stays choosable: staff are warned and may confirm.
    if (state === 'outside-hours') return { value: time, label: `${time} (${t('form.unavailable')})` };
    return {
      value: time,
      label: `${time} (${t(state === 'taken' ? 'form.taken' : 'form.unavailable')})`,
      disabled: true,
    };
  });
  return (
    <Select
      label={label}
      placeholder={t('form.timePlaceholder')}
      data={data}
      value={value}
      onChange={onChange}
      error={error}
      required
      allowDeselect={false}
      maxDropdownHeight={260}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
