import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { AUDIT_EVENTS, AUDIT_LEVELS, AuditSearchFilterSchema, type AuditSearchFilterInput } from '@telehealth/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { describeError } from '../../../lib/errors.ts';
import { auditSearchQueryOptions, type AuditListEntry } from '../api/audit-trail-api.ts';
import { AuditEntryDrawer } from './audit-entry-drawer.tsx';
import { AuditPatientFilter } from './audit-patient-filter.tsx';
import { ChainVerificationCard } from './chain-verification-card.tsx';
import {
  AuditEventName,
  formatDateTime,
  LevelBadge,
  matchEventByNameOrCode,
  useAuditEventName,
} from './audit-format.tsx';

interface FormState {
  from: string;
  to: string;
  person: string;
  event: string | null;
  level: string | null;
  source: string | null;
  patientId: string;
  text: string;
}

const EMPTY: FormState = {
  from: '',
  to: '',
  person: '',
  event: null,
  level: null,
  source: null,
  patientId: '',
  text: '',
};

/** A local date and time from the form (no zone) as the instant it names in this browser's zone. */
function toIso(local: string): string | null {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function toFilter(form: FormState): AuditSearchFilterInput {
  return {
    from: toIso(form.from),
    to: toIso(form.to),
    person: form.person.trim() || null,
    event: form.event,
    level: form.level as AuditSearchFilterInput['level'],
    source: form.source as AuditSearchFilterInput['source'],
    patientId: form.patientId.trim() || null,
    text: form.text.trim() || null,
  };
}

/**
 * The Audit trail tab of /admin/security: search the whole trail on the server by period, person, event, level,
 * source, patient and text, newest first, a page at a time; open an entry's full detail; verify the chain.
 */
export function AuditTrailPanel({ patientId }: { patientId?: string }) {
  const { t, i18n } = useTranslation('audit-trail');
  const eventName = useAuditEventName();
  // The events by name in the reader's language; typing a code (ACCESS_REQUEST_VIEW) finds it too.
  const eventOptions = AUDIT_EVENTS.map((event) => ({ value: event, label: eventName(event) })).sort((a, b) =>
    a.label.localeCompare(b.label, i18n.language),
  );
  // Opened from a patient's chart ("Who opened this record"): searched for that patient at once.
  const [form, setForm] = useState<FormState>({ ...EMPTY, patientId: patientId ?? '' });
  const [filter, setFilter] = useState<AuditSearchFilterInput>(() => {
    const initial = toFilter({ ...EMPTY, patientId: patientId ?? '' });
    return AuditSearchFilterSchema.safeParse(initial).success ? initial : {};
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const search = useInfiniteQuery(auditSearchQueryOptions(filter));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = toFilter(form);
    const parsed = AuditSearchFilterSchema.safeParse(next);
    if (!parsed.success) {
      setProblem(parsed.error.issues.map((i) => i.message).join(' · '));
      return;
    }
    setProblem(null);
    setFilter(next);
  };

  const set =
    <K extends keyof FormState>(key: K) =>
    (value: FormState[K]) => {
      setForm((f) => ({ ...f, [key]: value }));
    };

  const entries = search.data?.pages.flatMap((p) => p.entries) ?? [];

  return (
    <Stack gap="lg">
      <ChainVerificationCard />
      <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="audit-search-heading" role="search">
        <Stack gap="sm">
          <Title order={2} size="h3" id="audit-search-heading">
            {t('search.title')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
            <TextInput
              type="datetime-local"
              label={t('search.from')}
              value={form.from}
              onChange={(e) => set('from')(e.currentTarget.value)}
            />
            <TextInput
              type="datetime-local"
              label={t('search.to')}
              value={form.to}
              onChange={(e) => set('to')(e.currentTarget.value)}
            />
            <TextInput
              label={t('search.person')}
              description={t('search.personHint')}
              value={form.person}
              onChange={(e) => set('person')(e.currentTarget.value)}
            />
            <Select
              label={t('search.event')}
              placeholder={t('search.any')}
              data={eventOptions}
              filter={matchEventByNameOrCode}
              value={form.event}
              onChange={set('event')}
              searchable
              clearable
            />
            <Select
              label={t('search.level')}
              placeholder={t('search.any')}
              data={AUDIT_LEVELS.map((level) => ({ value: level, label: t(`level.${level}`) }))}
              value={form.level}
              onChange={set('level')}
              clearable
            />
            <Select
              label={t('search.source')}
              placeholder={t('search.any')}
              data={[
                { value: 'server', label: t('source.server') },
                { value: 'client', label: t('source.client') },
              ]}
              value={form.source}
              onChange={set('source')}
              clearable
            />
            <AuditPatientFilter value={form.patientId} onChange={set('patientId')} />
            <TextInput
              label={t('search.text')}
              description={t('search.textHint')}
              value={form.text}
              onChange={(e) => set('text')(e.currentTarget.value)}
            />
          </SimpleGrid>
          {problem ? (
            <Alert color="red" variant="light" role="alert">
              {problem}
            </Alert>
          ) : null}
          <Group gap="sm">
            <Button type="submit">{t('search.submit')}</Button>
            <Button
              variant="default"
              onClick={() => {
                setForm(EMPTY);
                setFilter({});
                setProblem(null);
              }}
            >
              {t('search.clear')}
            </Button>
          </Group>
        </Stack>
      </Paper>

      {search.isPending ? (
        <LoadingLine label={t('results.loading')} />
      ) : search.isError && !search.isFetchNextPageError ? (
        <Alert color="red" variant="light" role="alert" title={t('results.failed')}>
          {describeError(search.error)}
        </Alert>
      ) : entries.length === 0 ? (
        <Paper withBorder p="xl">
          <Text>{t('results.empty')}</Text>
        </Paper>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" role="status">
            {t('results.shown', { count: entries.length })}
          </Text>
          <ResultsTable entries={entries} onOpen={setOpenId} />
          {search.hasNextPage ? (
            <Group>
              <Button
                variant="default"
                loading={search.isFetchingNextPage}
                onClick={() => {
                  void search.fetchNextPage();
                }}
              >
                {t('results.more')}
              </Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t('results.end')}
            </Text>
          )}
          {search.isFetchNextPageError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(search.error)}
            </Alert>
          ) : null}
        </Stack>
      )}
      <AuditEntryDrawer
        entryId={openId}
        onClose={() => {
          setOpenId(null);
        }}
      />
    </Stack>
  );
}

function ResultsTable({ entries, onOpen }: { entries: AuditListEntry[]; onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation('audit-trail');
  const eventName = useAuditEventName();
  return (
    <ScrollTable label={t('results.caption')} minWidth={640}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Caption>{t('results.caption')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('field.timestamp')}</Table.Th>
            <Table.Th scope="col">{t('field.person')}</Table.Th>
            <Table.Th scope="col">{t('field.event')}</Table.Th>
            <Table.Th scope="col">{t('field.level')}</Table.Th>
            <Table.Th scope="col">{t('field.source')}</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>{t('results.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id} data-testid="audit-entry-row">
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.timestamp, i18n.language)}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm">{entry.personName ?? entry.userId}</Text>
                <Text size="xs" c="dimmed">
                  {entry.personEmail ?? entry.userRole}
                </Text>
              </Table.Td>
              <Table.Td>
                <AuditEventName event={entry.event} />
              </Table.Td>
              <Table.Td>
                <LevelBadge level={entry.level} />
              </Table.Td>
              <Table.Td>
                {entry.source === 'client' ? (
                  <Badge
                    variant="outline"
                    color="gray"
                    radius="sm"
                    style={{ '--badge-color': 'var(--mantine-color-gray-8)' }}
                  >
                    {t('source.client')}
                  </Badge>
                ) : (
                  <Text size="sm">{t('source.server')}</Text>
                )}
              </Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => {
                    onOpen(entry.id);
                  }}
                  aria-label={t('results.openLabel', {
                    event: eventName(entry.event),
                    time: formatDateTime(entry.timestamp, i18n.language),
                  })}
                >
                  {t('results.open')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
