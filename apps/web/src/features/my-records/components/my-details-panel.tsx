import { Alert, Badge, Button, Group, Modal, NativeSelect, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import {
  CORRECTION_FIELDS,
  CORRECTION_RESPONSE_DAYS,
  CORRECTION_TEXT_MAX,
  CorrectionRequestInputSchema,
  type CorrectionField,
} from '@telehealth/shared';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import { formatInstantDate } from '../../../lib/practice-dates.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useMyCorrections, useRequestCorrection, type Correction, type MyRecord } from '../api/my-records-api.ts';

/** A calendar date (YYYY-MM-DD) in the reader's language, never shifted by a time zone. */
function formatCalendarDay(isoDate: string, language: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString(language, { timeZone: 'UTC', dateStyle: 'long' });
}

/**
 * My details: the patient's own record, read only, with "Ask for a correction" (the practice answers within
 * 60 days, 45 CFR 164.526) and the requests made so far with their answers.
 */
export function MyDetailsPanel({ record }: { record: MyRecord }) {
  const { t, i18n } = useTranslation('my-records');
  const [asking, setAsking] = useState(false);
  const none = t('details.notProvided');
  const address = [record.street, record.city, record.state, record.zipCode].filter(Boolean).join(', ');
  const items: [string, string][] = [
    [t('details.name'), `${record.firstName} ${record.lastName}`],
    [t('details.dateOfBirth'), formatCalendarDay(record.dateOfBirth, i18n.language)],
    [t('details.email'), record.email],
    [t('details.phone'), record.phone ?? none],
    [t('details.address'), address || none],
    [
      t('details.emergencyContact'),
      [record.emergencyContactName, record.emergencyContactPhone].filter(Boolean).join(' · ') || none,
    ],
    [t('details.insurance'), record.insuranceProvider ?? none],
    [t('details.allergies'), record.allergies ?? none],
    [t('details.medications'), record.currentMedications ?? none],
  ];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-details-title">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h3" id="my-details-title">
            {t('details.title')}
          </Title>
          <Button variant="light" onClick={() => setAsking(true)}>
            {t('correction.ask')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('details.readOnly')}
        </Text>
        <DataList items={items} />
        <CorrectionList />
      </Stack>
      <CorrectionModal opened={asking} onClose={() => setAsking(false)} />
    </Paper>
  );
}

/** Label and value pairs that wrap on a phone. */
function DataList({ items }: { items: [string, string][] }) {
  return (
    <dl style={{ margin: 0, display: 'grid', gap: 'var(--mantine-spacing-xs)' }}>
      {items.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" size="sm" fw={600}>
            {label}
          </Text>
          <Text component="dd" m={0} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {value}
          </Text>
        </div>
      ))}
    </dl>
  );
}

function CorrectionList() {
  const { t } = useTranslation('my-records');
  const corrections = useMyCorrections();
  if (corrections.isPending) return <LoadingLine label={t('loading')} />;
  if (corrections.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {t('correction.loadFailed')}
      </Alert>
    );
  }
  if (corrections.data.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="my-corrections-title">
      <Title order={3} size="h4" id="my-corrections-title">
        {t('correction.listTitle')}
      </Title>
      {corrections.data.map((c) => (
        <CorrectionItem key={c.id} correction={c} />
      ))}
    </Stack>
  );
}

/** One request: what, when, its status and the date by which the practice answers, or the answer. */
export function CorrectionItem({ correction }: { correction: Correction }) {
  const { t, i18n } = useTranslation('my-records');
  const due = new Date(new Date(correction.createdAt).getTime() + CORRECTION_RESPONSE_DAYS * 86_400_000);
  const color = correction.status === 'accepted' ? 'teal.9' : correction.status === 'declined' ? 'red.9' : 'gray.7';
  return (
    <Paper withBorder p="sm" radius="sm">
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600}>{t(`correction.fields.${correction.field as CorrectionField}`)}</Text>
          <Badge color={color} variant="filled">
            {t(`correction.status.${correction.status}`)}
          </Badge>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {correction.request}
        </Text>
        <Text size="xs" c="dimmed">
          {t('correction.sentOn', { date: formatInstantDate(correction.createdAt, i18n.language) })}
          {correction.status === 'pending'
            ? ` · ${t('correction.dueBy', { date: formatInstantDate(due.toISOString(), i18n.language) })}`
            : ''}
        </Text>
        {correction.status !== 'pending' ? (
          <Text size="sm">
            {t('correction.answeredBy', {
              name: correction.answeredByName ?? '—',
              date: correction.answeredAt ? formatInstantDate(correction.answeredAt, i18n.language) : '—',
            })}
            {correction.response ? `: ${correction.response}` : ''}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

function CorrectionModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('my-records');
  const request = useRequestCorrection();
  const [field, setField] = useState<CorrectionField | ''>('');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const close = () => {
    setField('');
    setText('');
    setErrors({});
    request.reset();
    onClose();
  };
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = CorrectionRequestInputSchema.safeParse({ field: field || undefined, request: text });
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setErrors({});
    request.mutate(parsed.data, { onSuccess: close });
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('correction.title')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('correction.intro', { days: CORRECTION_RESPONSE_DAYS })}</Text>
          <NativeSelect
            label={t('correction.field')}
            required
            value={field}
            onChange={(e) => setField(e.currentTarget.value as CorrectionField)}
            data={[
              { value: '', label: t('correction.chooseField') },
              ...CORRECTION_FIELDS.map((f) => ({ value: f, label: t(`correction.fields.${f}`) })),
            ]}
            error={errors['field'] ? errorText(errors['field']) : undefined}
          />
          <Textarea
            label={t('correction.request')}
            description={t('correction.requestHint')}
            required
            autosize
            minRows={4}
            maxLength={CORRECTION_TEXT_MAX}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={errors['request'] ? errorText(errors['request']) : undefined}
          />
          {request.error ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(request.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={request.isPending}>
              {t('correction.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
