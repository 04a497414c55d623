import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { patientChoicesQueryOptions, providerChoicesQueryOptions } from '../lib/choices.ts';

/** A searchable choice among the caller's patients (asked of the server as the person types). */
export function PatientPicker(props: {
  label: string;
  placeholder: string;
  nothingFound: string;
  value: string;
  onChange: (id: string | null) => void;
  error?: string | undefined;
  /** Default true; an optional choice can also be cleared. */
  required?: boolean;
  disabled?: boolean;
  /** The chosen patient's name, when it may not be among the first choices the server answers. */
  selectedLabel?: string | null | undefined;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const patients = useQuery(patientChoicesQueryOptions(debounced));
  const required = props.required ?? true;
  const data = (patients.data ?? []).map((p) => ({ value: p.id, label: `${p.firstName} ${p.lastName}` }));
  if (props.value && props.selectedLabel && !data.some((d) => d.value === props.value)) {
    data.unshift({ value: props.value, label: props.selectedLabel });
  }
  return (
    <Select
      label={props.label}
      placeholder={props.placeholder}
      data={data}
      value={props.value || null}
      onChange={props.onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={props.nothingFound}
      error={props.error}
      required={required}
      clearable={!required}
      disabled={props.disabled ?? false}
    />
  );
}

/** A choice of provider for administrators; `clearable` with a placeholder such as "All providers". */
export function ProviderPicker(props: {
  label: string;
  placeholder?: string | undefined;
  value: string | null;
  onChange: (id: string | null) => void;
  clearable?: boolean;
  required?: boolean;
  error?: string | undefined;
}) {
  const providers = useQuery(providerChoicesQueryOptions());
  return (
    <Select
      label={props.label}
      placeholder={props.placeholder}
      data={(providers.data ?? []).map((p) => ({ value: p.id, label: `${p.firstName} ${p.lastName}` }))}
      value={props.value}
      onChange={props.onChange}
      clearable={props.clearable ?? false}
      required={props.required ?? false}
      error={props.error}
      searchable
      maw={360}
    />
  );
}
