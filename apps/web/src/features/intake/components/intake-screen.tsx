import { Alert, Button, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { INTAKE_SECTION_SCHEMAS, type IntakeSection } from '@telehealth/shared';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { describeError } from '../../../lib/errors.ts';
import {
  useMyIntake,
  useRequestIntakeQuestionnaires,
  useSaveIntakeSection,
  useSubmitIntake,
  type Intake,
} from '../api/intake-api.ts';
import { initialDraft, answersOf, resumeIndex, type SectionDraft } from '../utils/section-forms.ts';
import { CardPhotoField } from './card-photo-field.tsx';
import { SectionFields } from './section-fields.tsx';

/**
 * `/my/intake`: the patient's intake packet (decision 067), one section per step with "Step 3 of 9" above it, each
 * step saved when the patient goes on, goes back or chooses "Save and finish later", and opened again where they left off. The
 * last step sends the baseline questionnaires, shown by `questionnaires` (the measures feature, composed by the
 * route), then "Submit to my provider".
 */
export function IntakeScreen({ questionnaires }: { questionnaires: ReactNode }) {
  const { t } = useTranslation('intake');
  const intake = useMyIntake();
  return (
    <Stack gap="md" maw={720} mx="auto" w="100%">
      <Title order={1}>{t('title')}</Title>
      {intake.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : intake.isError ? (
        <Alert color="red" variant="light" role="alert">
          {t('loadFailed')}
        </Alert>
      ) : intake.data.status === 'submitted' || intake.data.status === 'accepted' ? (
        <Alert color="green" variant="light" role="status">
          {t(intake.data.status === 'submitted' ? 'submitted' : 'accepted')}
        </Alert>
      ) : (
        <IntakeStepper intake={intake.data} questionnaires={questionnaires} />
      )}
    </Stack>
  );
}

function IntakeStepper({ intake, questionnaires }: { intake: Intake; questionnaires: ReactNode }) {
  const { t } = useTranslation('intake');
  const [index, setIndex] = useState(() => resumeIndex(intake));
  const [savedForLater, setSavedForLater] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  // Without the questionnaires step, the last section's "Save and continue" submits.
  const submit = useSubmitIntake();
  const section = intake.steps[Math.min(index, intake.steps.length - 1)]!;
  const total = intake.steps.length;
  const step = Math.min(index, total - 1) + 1;

  const goTo = (next: number) => {
    setSavedForLater(false);
    setIndex(next);
    window.scrollTo({ top: 0 });
    // The new step's heading takes the focus, so a screen reader says where the patient is.
    requestAnimationFrame(() => heading.current?.focus());
  };

  return (
    <Stack gap="md">
      {step === 1 ? <Text>{t('intro')}</Text> : null}
      {intake.returnReason ? (
        <Alert color="yellow" variant="light">
          {t('returned', { reason: intake.returnReason })}
        </Alert>
      ) : null}
      <Stack gap={6}>
        <Text fw={700} data-testid="intake-step">
          {t('stepOf', { step, total })}
        </Text>
        <Progress.Root size="lg">
          <Progress.Section
            value={(step / total) * 100}
            aria-label={t('progressLabel')}
            aria-valuetext={t('stepOf', { step, total })}
          />
        </Progress.Root>
      </Stack>
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" component="section" aria-labelledby="intake-section">
        <Stack gap="md">
          <Title order={2} size="h3" id="intake-section" ref={heading} tabIndex={-1}>
            {t(`sections.${section}`)}
          </Title>
          <Text c="dimmed">{t(`sectionIntro.${section}`)}</Text>
          {submit.isError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(submit.error)}
            </Alert>
          ) : null}
          {savedForLater ? (
            <Alert color="green" variant="light" role="status">
              {t('savedForLater')}
            </Alert>
          ) : null}
          {section === 'questionnaires' ? (
            <QuestionnairesStep
              intake={intake}
              questionnaires={questionnaires}
              onBack={step > 1 ? () => goTo(index - 1) : null}
            />
          ) : (
            <SectionStep
              key={section}
              intake={intake}
              section={section}
              next={intake.steps[index + 1] ?? null}
              previous={step > 1 ? (intake.steps[index - 1] ?? null) : null}
              onBack={() => goTo(index - 1)}
              onNext={intake.steps[index + 1] ? () => goTo(index + 1) : () => submit.mutate(intake.patientId)}
              onSavedForLater={() => setSavedForLater(true)}
            />
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}

/** Which button sent a step's form: each saves it, then goes on, stays, or goes back. */
type StepExit = 'next' | 'later' | 'back';

/**
 * One step's form: checked by its section's shared schema, saved on "Save and continue", "Save and finish later"
 * and "Back" alike, so that nothing typed is lost whichever way the patient leaves the step.
 */
function SectionStep({
  intake,
  section,
  next,
  previous,
  onBack,
  onNext,
  onSavedForLater,
}: {
  intake: Intake;
  section: Exclude<IntakeSection, 'questionnaires'>;
  next: IntakeSection | null;
  previous: IntakeSection | null;
  onBack: () => void;
  onNext: () => void;
  onSavedForLater: () => void;
}) {
  const { t } = useTranslation('intake');
  const [draft, setDraft] = useState<SectionDraft>(() => initialDraft(section, intake));
  // Which button sent the form: read when it is saved (the ref), and shown busy (the state).
  const exit = useRef<StepExit>('next');
  const [busy, setBusy] = useState<StepExit>('next');
  const leaveBy = (how: StepExit) => {
    exit.current = how;
    setBusy(how);
  };
  // Where the patient comes back to: the step they are going to.
  const resumeAt = (): IntakeSection => {
    if (exit.current === 'back' && previous) return previous;
    if (exit.current === 'next' && next) return next;
    return section;
  };
  const save = useSaveIntakeSection();
  const form = useSchemaForm({
    schema: INTAKE_SECTION_SCHEMAS[section],
    read: () => answersOf(draft),
    mutation: {
      mutateAsync: (answers: unknown) =>
        save.mutateAsync({
          patientId: intake.patientId,
          section,
          answers,
          nextSection: resumeAt(),
        }),
      error: save.error,
      isPending: save.isPending,
    },
    onDone: () => ({ next: onNext, later: onSavedForLater, back: onBack })[exit.current](),
  });
  const hasErrors = Object.keys(form.errors).length > 0;
  return (
    <form onSubmit={form.submit} noValidate>
      <Stack gap="md">
        <SectionFields section={section} draft={draft} onChange={setDraft} fieldError={form.fieldError} />
        {section === 'insurance' ? (
          <Stack gap="sm">
            <CardPhotoField side="front" photo={intake.cardPhotos.find((p) => p.side === 'front') ?? null} />
            <CardPhotoField side="back" photo={intake.cardPhotos.find((p) => p.side === 'back') ?? null} />
          </Stack>
        ) : null}
        {hasErrors ? (
          <Alert color="red" variant="light" role="alert">
            {t('fixErrors')}
          </Alert>
        ) : null}
        {form.failure ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(form.failure)}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          {previous ? (
            <Button
              size="lg"
              variant="default"
              type="submit"
              onClick={() => leaveBy('back')}
              loading={form.pending && busy === 'back'}
            >
              {t('back')}
            </Button>
          ) : (
            <span />
          )}
          <Button
            size="lg"
            variant="light"
            type="submit"
            onClick={() => leaveBy('later')}
            loading={form.pending && busy === 'later'}
          >
            {t('finishLater')}
          </Button>
          <Button size="lg" type="submit" onClick={() => leaveBy('next')} loading={form.pending && busy === 'next'}>
            {next ? t('next') : t('submit')}
          </Button>
        </SimpleGrid>
      </Stack>
    </form>
  );
}

/** The last step: the baseline questionnaires sent (once) and shown, then the intake submitted. */
function QuestionnairesStep({
  intake,
  questionnaires,
  onBack,
}: {
  intake: Intake;
  questionnaires: ReactNode;
  onBack: (() => void) | null;
}) {
  const { t } = useTranslation('intake');
  const request = useRequestIntakeQuestionnaires();
  const submit = useSubmitIntake();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    request.mutate(intake.patientId);
  }, [request, intake.patientId]);
  return (
    <Stack gap="md">
      {request.isPending ? <LoadingLine label={t('questionnaires.sending')} /> : null}
      {request.isError ? (
        <Alert color="yellow" variant="light">
          {t('questionnaires.failed')}
        </Alert>
      ) : null}
      {request.isSuccess ? questionnaires : null}
      {submit.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(submit.error)}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {onBack ? (
          <Button size="lg" variant="default" onClick={onBack}>
            {t('back')}
          </Button>
        ) : (
          <span />
        )}
        <Button size="lg" onClick={() => submit.mutate(intake.patientId)} loading={submit.isPending}>
          {t('submit')}
        </Button>
      </SimpleGrid>
    </Stack>
  );
}
