import { Autocomplete, Button, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { searchMedications, type IntakeSection } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { SECTION_FORMS, type FieldSpec, type ListSpec, type SectionDraft } from '../utils/section-forms.ts';

/** A step's inputs: its fields, then its lists (add and remove items), each with its error by path. */
export function SectionFields({
  section,
  draft,
  onChange,
  fieldError,
}: {
  section: IntakeSection;
  draft: SectionDraft;
  onChange: (draft: SectionDraft) => void;
  fieldError: (path: string) => string | undefined;
}) {
  const form = SECTION_FORMS[section];
  return (
    <Stack gap="md">
      {form.fields.map((field) => (
        <FieldInput
          key={field.name}
          field={field}
          id={`intake-${section}-${field.name}`}
          value={draft.values[field.name] ?? ''}
          error={fieldError(field.name)}
          onChange={(value) => onChange({ ...draft, values: { ...draft.values, [field.name]: value } })}
        />
      ))}
      {form.lists.map((list) => (
        <ListEditor
          key={list.name}
          section={section}
          list={list}
          items={draft.lists[list.name] ?? []}
          fieldError={fieldError}
          onChange={(items) => onChange({ ...draft, lists: { ...draft.lists, [list.name]: items } })}
        />
      ))}
    </Stack>
  );
}

function FieldInput({
  field,
  id,
  value,
  error,
  onChange,
  label,
}: {
  field: FieldSpec & { medication?: boolean };
  id: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  label?: string;
}) {
  const { t } = useTranslation('intake');
  const common = {
    id,
    label: label ?? t(field.label),
    value,
    error,
    size: 'md' as const,
    withAsterisk: field.required ?? false,
  };
  if (field.kind === 'textarea') {
    return <Textarea {...common} autosize minRows={3} maxRows={10} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
  if (field.medication) {
    return (
      <Autocomplete
        {...common}
        data={searchMedications(value, 8).map((drug) => drug.generic)}
        onChange={onChange}
        autoComplete="off"
      />
    );
  }
  return (
    <TextInput
      {...common}
      type={field.kind === 'date' ? 'date' : field.kind === 'tel' ? 'tel' : 'text'}
      autoComplete="off"
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

function ListEditor({
  section,
  list,
  items,
  fieldError,
  onChange,
}: {
  section: IntakeSection;
  list: ListSpec;
  items: Record<string, string>[];
  fieldError: (path: string) => string | undefined;
  onChange: (items: Record<string, string>[]) => void;
}) {
  const { t } = useTranslation('intake');
  const nameField = list.item[0]!;
  return (
    <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Title order={3} size="h4" component="legend">
        {t(list.title)}
      </Title>
      {fieldError(list.name) ? (
        <Text c="red.8" size="sm" role="alert">
          {fieldError(list.name)}
        </Text>
      ) : null}
      {items.length === 0 ? <Text c="dimmed">{t('lists.none')}</Text> : null}
      {items.map((item, index) => (
        <Paper key={index} withBorder p="sm" radius="sm" data-testid={`intake-${list.name}-item`}>
          <Stack gap="xs">
            {list.item.map((field) => (
              <FieldInput
                key={field.name}
                field={field}
                id={`intake-${section}-${list.name}-${index}-${field.name}`}
                label={`${t(field.label)} ${index + 1}`}
                value={item[field.name] ?? ''}
                error={fieldError(`${list.name}.${index}.${field.name}`)}
                onChange={(value) =>
                  onChange(items.map((it, i) => (i === index ? { ...it, [field.name]: value } : it)))
                }
              />
            ))}
            <Group justify="flex-end">
              <Button
                variant="subtle"
                color="red"
                size="md"
                onClick={() => onChange(items.filter((_, i) => i !== index))}
                aria-label={t('removeNamed', { name: item[nameField.name] || `${t(nameField.label)} ${index + 1}` })}
              >
                {t('remove')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      ))}
      <Button
        variant="light"
        size="md"
        onClick={() => onChange([...items, Object.fromEntries(list.item.map((f) => [f.name, '']))])}
      >
        {t(list.addLabel)}
      </Button>
    </Stack>
  );
}
