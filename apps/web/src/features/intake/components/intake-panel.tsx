import { Alert, Anchor, Button, Group, Modal, Paper, Radio, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import {
  INTAKE_HISTORY_SECTIONS,
  ReturnIntakeInputSchema,
  type IntakeDetailField,
  type IntakeFieldChoice,
  type IntakeSection,
} from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FormFooter } from '../../../components/form-footer.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { ToneBadge, type Tone } from '../../../components/tone-badge.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatInstantDate } from '../../../lib/practice-dates.ts';
import {
  cardPhotoUrl,
  useAcceptIntake,
  usePatientIntake,
  useReturnIntake,
  type Intake,
  type IntakeAcceptance,
} from '../api/intake-api.ts';
import { SECTION_FORMS } from '../utils/section-forms.ts';

const STATUS_TONE: Record<Intake['status'], Tone> = {
  'not-started': 'gray',
  'in-progress': 'yellow',
  submitted: 'blue',
  accepted: 'green',
};

/**
 * The chart's "Intake" panel (decision 067): the status of the patient's intake and, once submitted, the answers.
 * The patient's provider (`canReview`) compares the details with the record field by field (by default an empty
 * field is filled and a filled one kept), accepts it into the record, or sends it back with a reason. Accepted, it
 * is the patient's reported history. Others (an emergency grant) read only.
 */
export function IntakePanel({ patientId, canReview }: { patientId: string; canReview: boolean }) {
  const { t, i18n } = useTranslation('intake');
  const intake = usePatientIntake(patientId);
  const [accepted, setAccepted] = useState<IntakeAcceptance | null>(null);
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby="intake-panel-title"
      data-testid="intake-panel"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" id="intake-panel-title">
            {t('panel.title')}
          </Title>
          {intake.data ? (
            <ToneBadge tone={STATUS_TONE[intake.data.status]} data-testid="intake-status">
              {t(`panel.status.${intake.data.status}`)}
            </ToneBadge>
          ) : null}
        </Group>
        {intake.isPending ? (
          <LoadingLine label={t('loading')} />
        ) : intake.isError ? (
          <Alert color="red" variant="light">
            {describeError(intake.error)}
          </Alert>
        ) : (
          <>
            {accepted ? <AcceptanceSummary acceptance={accepted} /> : null}
            {intake.data.status === 'not-started' ? <Text c="dimmed">{t('panel.notStarted')}</Text> : null}
            {intake.data.status === 'in-progress' ? (
              <Text c="dimmed">
                {intake.data.returnReason
                  ? t('panel.returnedNote', { reason: intake.data.returnReason })
                  : t('panel.inProgress')}
              </Text>
            ) : null}
            {intake.data.submittedAt && intake.data.status === 'submitted' ? (
              <Text size="sm" c="dimmed">
                {t('panel.submittedOn', { date: formatInstantDate(intake.data.submittedAt, i18n.language) })}
              </Text>
            ) : null}
            {intake.data.acceptedAt ? (
              <Text size="sm" c="dimmed">
                {t('panel.acceptedOn', { date: formatInstantDate(intake.data.acceptedAt, i18n.language) })}
              </Text>
            ) : null}
            {intake.data.status === 'submitted' ? (
              <SubmittedIntake intake={intake.data} canReview={canReview} onAccepted={setAccepted} />
            ) : null}
            {intake.data.status === 'accepted' ? <IntakeAnswers intake={intake.data} historyOnly={false} /> : null}
          </>
        )}
      </Stack>
    </Paper>
  );
}

function AcceptanceSummary({ acceptance }: { acceptance: IntakeAcceptance }) {
  const { t } = useTranslation('intake');
  const skipped = [...acceptance.medicationsSkipped, ...acceptance.allergiesSkipped];
  return (
    <Alert color="green" variant="light" role="status">
      <Text>
        {t('panel.accepted', { medications: acceptance.medicationsAdded, allergies: acceptance.allergiesAdded })}
      </Text>
      {skipped.length > 0 ? <Text>{t('panel.alreadyListed', { names: skipped.join(', ') })}</Text> : null}
    </Alert>
  );
}

/** A submitted intake: its answers and, for the reviewer, the details comparison, accept and send back. */
function SubmittedIntake({
  intake,
  canReview,
  onAccepted,
}: {
  intake: Intake;
  canReview: boolean;
  onAccepted: (acceptance: IntakeAcceptance) => void;
}) {
  const { t } = useTranslation('intake');
  const accept = useAcceptIntake();
  const [choices, setChoices] = useState<Partial<Record<IntakeDetailField, IntakeFieldChoice>>>({});
  const [sendingBack, setSendingBack] = useState(false);
  return (
    <Stack gap="md">
      <IntakeAnswers intake={intake} historyOnly={false} />
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t('panel.details')}
        </Title>
        {intake.detailChanges.length === 0 ? (
          <Text c="dimmed">{t('panel.noDetailChanges')}</Text>
        ) : (
          <Stack gap="xs">
            {intake.detailChanges.map((change) => {
              const field = t(`fields.${change.field}`);
              return (
                <Paper key={change.field} withBorder p="xs" radius="sm" data-testid="intake-detail-change">
                  <Radio.Group
                    label={field}
                    value={choices[change.field] ?? change.defaultChoice}
                    onChange={(value) => setChoices({ ...choices, [change.field]: value })}
                  >
                    <Stack gap={6} mt={6}>
                      <Radio
                        value="current"
                        disabled={!canReview}
                        label={`${t('panel.keepCurrent')}: ${change.current ?? t('panel.empty')}`}
                      />
                      <Radio
                        value="reported"
                        disabled={!canReview}
                        label={`${t('panel.takeReported')}: ${change.reported ?? t('panel.empty')}`}
                      />
                    </Stack>
                  </Radio.Group>
                </Paper>
              );
            })}
          </Stack>
        )}
      </Stack>
      {canReview ? (
        <Stack gap="xs">
          <Text size="sm">{t('panel.acceptHint')}</Text>
          {accept.isError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(accept.error)}
            </Alert>
          ) : null}
          <Group gap="sm" wrap="wrap">
            <Button
              loading={accept.isPending}
              onClick={() =>
                accept.mutate(
                  {
                    intakeId: intake.id!,
                    choices: Object.entries(choices).map(([field, choice]) => ({
                      field: field as IntakeDetailField,
                      choice,
                    })),
                  },
                  { onSuccess: onAccepted },
                )
              }
            >
              {t('panel.accept')}
            </Button>
            <Button variant="default" onClick={() => setSendingBack(true)}>
              {t('panel.sendBack')}
            </Button>
          </Group>
        </Stack>
      ) : null}
      {sendingBack ? <SendBackModal intakeId={intake.id!} onClose={() => setSendingBack(false)} /> : null}
    </Stack>
  );
}

function SendBackModal({ intakeId, onClose }: { intakeId: string; onClose: () => void }) {
  const { t } = useTranslation('intake');
  const [reason, setReason] = useState('');
  const sendBack = useReturnIntake();
  const form = useSchemaForm({
    schema: ReturnIntakeInputSchema,
    read: () => ({ intakeId, reason }),
    mutation: sendBack,
    onDone: onClose,
  });
  return (
    <Modal opened onClose={onClose} title={t('panel.sendBackTitle')}>
      <form onSubmit={form.submit} noValidate>
        <Stack gap="sm">
          <Textarea
            label={t('panel.reason')}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={form.fieldError('reason')}
            autosize
            minRows={2}
            data-autofocus
          />
          <FormFooter
            failure={form.failure}
            pending={form.pending}
            onCancel={onClose}
            cancelLabel={t('panel.cancel')}
            submitLabel={t('panel.sendBack')}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** The answers, section by section (for an accepted intake: the patient's reported history first). */
function IntakeAnswers({ intake, historyOnly }: { intake: Intake; historyOnly: boolean }) {
  const { t } = useTranslation('intake');
  const sections = intake.steps.filter(
    (s): s is Exclude<IntakeSection, 'questionnaires' | 'details'> =>
      s !== 'questionnaires' &&
      s !== 'details' &&
      (!historyOnly || (INTAKE_HISTORY_SECTIONS as readonly string[]).includes(s)),
  );
  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        {intake.status === 'accepted' ? t('panel.reportedHistory') : t('panel.answers')}
      </Title>
      {sections.map((section) => (
        <SectionAnswers key={section} intake={intake} section={section} />
      ))}
    </Stack>
  );
}

function SectionAnswers({ intake, section }: { intake: Intake; section: IntakeSection }) {
  const { t } = useTranslation('intake');
  const answers: Record<string, unknown> | null = intake.answers[section] ?? null;
  const form = SECTION_FORMS[section];
  const rows = form.fields.map((field): [string, unknown] => [t(field.label), answers?.[field.name]]);
  return (
    <Stack gap={4} data-testid={`intake-answers-${section}`}>
      <Text fw={700}>{t(`sections.${section}`)}</Text>
      {!answers ? (
        <Text size="sm" c="dimmed">
          {t('panel.noAnswer')}
        </Text>
      ) : (
        <>
          {rows.length > 0 ? (
            <Table variant="vertical" layout="fixed" withTableBorder={false}>
              <Table.Tbody>
                {rows.map(([label, value]) => (
                  <Table.Tr key={label}>
                    <Table.Th w={{ base: 120, sm: 200 }}>{label}</Table.Th>
                    <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {typeof value === 'string' && value ? value : t('panel.noAnswer')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
          {form.lists.map((list) => {
            const items = Array.isArray(answers[list.name])
              ? (answers[list.name] as Record<string, string | null>[])
              : [];
            return (
              <Stack key={list.name} gap={2}>
                <Text size="sm" fw={600}>
                  {t(list.title)}
                </Text>
                {items.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('lists.none')}
                  </Text>
                ) : (
                  <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
                    {items.map((item, i) => (
                      <li key={i}>
                        <Text size="sm">
                          {list.item
                            .map((f) => item[f.name])
                            .filter(Boolean)
                            .join(' · ')}
                        </Text>
                      </li>
                    ))}
                  </ul>
                )}
              </Stack>
            );
          })}
          {section === 'insurance' && intake.cardPhotos.length > 0 ? (
            <Group gap="sm">
              {intake.cardPhotos.map((photo) => (
                <Anchor key={photo.id} href={cardPhotoUrl(photo.id)} size="sm">
                  {t(`card.${photo.side}`)}
                </Anchor>
              ))}
            </Group>
          ) : null}
        </>
      )}
    </Stack>
  );
}
