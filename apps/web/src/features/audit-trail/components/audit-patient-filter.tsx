import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { patientChoicesQueryOptions } from '../../../lib/choices.ts';

const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Fewer letters would list patients for nothing (each search is a patient list read, audited). */
const MIN_SEARCH = 2;

/**
 * The audit search's patient: type a name, choose the patient among the server's answers (the patient list's own
 * search, audited as a PATIENT_VIEW like every list read), and the trail is searched by that record id. A pasted
 * record id is offered as it is (decision 050).
 */
export function AuditPatientFilter({ value, onChange }: { value: string; onChange: (patientId: string) => void }) {
  const { t } = useTranslation('audit-trail');
  const [search, setSearch] = useState('');
  const [chosenLabel, setChosenLabel] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const typedId = RECORD_ID.test(debounced) ? debounced.toLowerCase() : null;
  const byId = (id: string) => ({ value: id, label: t('search.patientById', { id }) });
  const chosen = value ? (chosenLabel ? { value, label: chosenLabel } : byId(value)) : null;
  const patients = useQuery({
    ...patientChoicesQueryOptions(debounced, { includeInactive: true }),
    // The field shows the chosen patient's name (or record id) as its text: no search for that.
    enabled: debounced.length >= MIN_SEARCH && typedId === null && debounced !== chosen?.label,
  });
  const found = (patients.data ?? []).map((p) => ({ value: p.id, label: `${p.firstName} ${p.lastName}` }));
  const data = typedId ? [byId(typedId)] : found;
  if (chosen && !data.some((option) => option.value === chosen.value)) data.unshift(chosen);
  return (
    <Select
      label={t('search.patient')}
      description={t('search.patientHint')}
      placeholder={t('search.any')}
      data={data}
      value={value || null}
      onChange={(id, option) => {
        setChosenLabel(id && option ? option.label : null);
        onChange(id ?? '');
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already matched the name or e-mail; the e-mail is not in the label, so nothing is filtered here.
      filter={({ options }) => options}
      nothingFoundMessage={
        debounced.length < MIN_SEARCH
          ? t('search.patientTypeMore')
          : patients.isFetching
            ? null
            : t('search.patientNone')
      }
      clearable
    />
  );
}
