import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  INSTRUMENT_DEFINITIONS,
  INSTRUMENTS,
  SaveTreatmentPlanInputSchema,
  TREATMENT_PLAN_GOAL_MAX,
  TREATMENT_PLAN_GOALS_MAX,
  TREATMENT_PLAN_INTERVENTION_MAX,
  TREATMENT_PLAN_INTERVENTIONS_MAX,
  TREATMENT_PLAN_STATUSES,
  type Instrument,
  type TreatmentPlanStatus,
} from '@telehealth/shared';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { afterMutation } from '../../../lib/after-mutation.ts';
import { errorText } from '../../../lib/error-text.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsByPath, fieldErrorsFromServer, type FieldErrors } from '../../../lib/form-errors.ts';
import { usePatientDiagnoses } from '../api/diagnoses-api.ts';
import { useSaveTreatmentPlan, type TreatmentPlanVersion } from '../api/treatment-plans-api.ts';

interface GoalDraft {
  description: string;
  instrument: Instrument | '';
  targetBelow: number | '';
  targetDate: string;
}

const EMPTY_GOAL: GoalDraft = { description: '', instrument: '', targetBelow: '', targetDate: '' };

/** The editor's state, started from the current version (a signed one is copied into the next draft). */
function usePlanForm(patientId: string, plan: TreatmentPlanVersion | null) {
  const [status, setStatus] = useState<TreatmentPlanStatus>(plan?.status ?? 'active');
  const [problemIds, setProblemIds] = useState<string[]>(plan?.problems.map((p) => p.diagnosisId) ?? []);
  const [goals, setGoals] = useState<GoalDraft[]>(
    plan?.goals.map((g) => ({
      description: g.description,
      instrument: g.instrument ?? '',
      targetBelow: g.targetBelow ?? '',
      targetDate: g.targetDate ?? '',
    })) ?? [{ ...EMPTY_GOAL }],
  );
  const [interventions, setInterventions] = useState<string[]>(plan?.interventions ?? ['']);
  const [targetDate, setTargetDate] = useState(plan?.targetDate ?? '');
  const [reviewDate, setReviewDate] = useState(plan?.reviewDate ?? '');
  const input = () => ({
    patientId,
    status,
    problemIds,
    goals: goals.map((g) => ({
      description: g.description,
      instrument: g.instrument || null,
      targetBelow: g.targetBelow === '' ? null : g.targetBelow,
      targetDate: g.targetDate,
    })),
    interventions,
    targetDate,
    reviewDate,
  });
  const setGoal = (index: number, change: Partial<GoalDraft>) =>
    setGoals((list) => list.map((g, i) => (i === index ? { ...g, ...change } : g)));
  const setIntervention = (index: number, text: string) =>
    setInterventions((list) => list.map((v, i) => (i === index ? text : v)));
  return {
    values: { status, problemIds, goals, interventions, targetDate, reviewDate },
    set: { setStatus, setProblemIds, setGoal, setIntervention, setTargetDate, setReviewDate },
    addGoal: () => setGoals((list) => [...list, { ...EMPTY_GOAL }]),
    removeGoal: (index: number) => setGoals((list) => list.filter((_, i) => i !== index)),
    addIntervention: () => setInterventions((list) => [...list, '']),
    removeIntervention: (index: number) => setInterventions((list) => list.filter((_, i) => i !== index)),
    input,
  };
}

/**
 * Writes the plan: its status, the problems (chosen among the patient's diagnoses), goals (each with an optional
 * questionnaire target and date), interventions, and the target and review dates. Saving keeps a draft; after a
 * signature it starts the next version, the signed one kept as it was.
 */
export function TreatmentPlanEditor({
  patientId,
  plan,
  onClose,
}: {
  patientId: string;
  plan: TreatmentPlanVersion | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('clinical-record');
  const form = usePlanForm(patientId, plan);
  const { values, set } = form;
  const save = useSaveTreatmentPlan();
  const diagnoses = usePatientDiagnoses(patientId);
  const [errors, setErrors] = useState<FieldErrors>({});
  const fieldError = (field: string) => (errors[field] ? errorText(errors[field]) : undefined);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = SaveTreatmentPlanInputSchema.safeParse(form.input());
    if (!parsed.success) {
      setErrors(fieldErrorsByPath(parsed.error));
      return;
    }
    setErrors({});
    const sent = save.mutateAsync(parsed.data);
    sent.catch((error: unknown) => setErrors(fieldErrorsFromServer(error) ?? {}));
    afterMutation(sent, onClose);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={plan ? t('plans.editor.editTitle') : t('plans.editor.newTitle')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {plan?.signed ? (
            <Alert color="blue" variant="light">
              {t('plans.editor.newVersion', { version: plan.version + 1 })}
            </Alert>
          ) : null}
          <NativeSelect
            label={t('plans.editor.status')}
            required
            value={values.status}
            onChange={(e) => set.setStatus(e.currentTarget.value as TreatmentPlanStatus)}
            data={TREATMENT_PLAN_STATUSES.map((s) => ({ value: s, label: t(`plans.status.${s}`) }))}
            error={fieldError('status')}
          />
          {diagnoses.isPending ? (
            <LoadingLine label={t('diagnoses.loading')} />
          ) : (
            <Checkbox.Group
              label={t('plans.problems')}
              description={t('plans.editor.problemsHint')}
              value={values.problemIds}
              onChange={set.setProblemIds}
              error={fieldError('problemIds')}
            >
              <Stack gap={6} mt={6}>
                {(diagnoses.data ?? []).length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('plans.editor.noDiagnoses')}
                  </Text>
                ) : null}
                {(diagnoses.data ?? []).map((d) => (
                  <Checkbox
                    key={d.id}
                    value={d.id}
                    label={`${d.code} ${d.title} (${t(`diagnoses.status.${d.status}`)})`}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
          <Stack gap="xs">
            <Text fw={600} size="sm">
              {t('plans.goals')}
            </Text>
            {values.goals.map((goal, index) => (
              <Fieldset key={index} legend={t('plans.editor.goalN', { n: index + 1 })} p="sm">
                <Stack gap="xs">
                  <TextInput
                    label={t('plans.editor.goalDescription')}
                    description={t('plans.editor.goalHint')}
                    required
                    maxLength={TREATMENT_PLAN_GOAL_MAX}
                    value={goal.description}
                    onChange={(e) => set.setGoal(index, { description: e.currentTarget.value })}
                    error={fieldError(`goals.${index}.description`)}
                  />
                  <Group grow align="flex-start" wrap="wrap">
                    <NativeSelect
                      label={t('plans.editor.instrument')}
                      value={goal.instrument}
                      onChange={(e) => set.setGoal(index, { instrument: e.currentTarget.value as Instrument | '' })}
                      data={[
                        { value: '', label: t('plans.editor.noInstrument') },
                        ...INSTRUMENTS.map((i) => ({ value: i, label: t(`plans.instrument.${i}`) })),
                      ]}
                      error={fieldError(`goals.${index}.instrument`)}
                      miw={150}
                    />
                    <NumberInput
                      label={t('plans.editor.targetBelow')}
                      min={1}
                      max={goal.instrument ? INSTRUMENT_DEFINITIONS[goal.instrument].maxScore : undefined}
                      allowDecimal={false}
                      value={goal.targetBelow}
                      onChange={(v) => set.setGoal(index, { targetBelow: typeof v === 'number' ? v : '' })}
                      error={fieldError(`goals.${index}.targetBelow`)}
                      miw={120}
                    />
                    <TextInput
                      type="date"
                      label={t('plans.editor.goalDate')}
                      value={goal.targetDate}
                      onChange={(e) => set.setGoal(index, { targetDate: e.currentTarget.value })}
                      error={fieldError(`goals.${index}.targetDate`)}
                      miw={150}
                    />
                  </Group>
                  <Group justify="flex-end">
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      onClick={() => form.removeGoal(index)}
                      aria-label={t('plans.editor.removeGoalN', { n: index + 1 })}
                    >
                      {t('plans.editor.remove')}
                    </Button>
                  </Group>
                </Stack>
              </Fieldset>
            ))}
            {fieldError('goals') ? (
              <Text c="red" size="sm">
                {fieldError('goals')}
              </Text>
            ) : null}
            {values.goals.length < TREATMENT_PLAN_GOALS_MAX ? (
              <Button variant="light" size="sm" onClick={form.addGoal} w="fit-content">
                {t('plans.editor.addGoal')}
              </Button>
            ) : null}
          </Stack>
          <Stack gap="xs">
            <Text fw={600} size="sm">
              {t('plans.interventions')}
            </Text>
            {values.interventions.map((text, index) => (
              <Group key={index} align="flex-end" wrap="nowrap" gap="xs">
                <Textarea
                  label={t('plans.editor.interventionN', { n: index + 1 })}
                  autosize
                  minRows={1}
                  maxLength={TREATMENT_PLAN_INTERVENTION_MAX}
                  value={text}
                  onChange={(e) => set.setIntervention(index, e.currentTarget.value)}
                  error={fieldError(`interventions.${index}`)}
                  style={{ flex: 1 }}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  mb={4}
                  onClick={() => form.removeIntervention(index)}
                  aria-label={t('plans.editor.removeInterventionN', { n: index + 1 })}
                >
                  ×
                </ActionIcon>
              </Group>
            ))}
            {values.interventions.length < TREATMENT_PLAN_INTERVENTIONS_MAX ? (
              <Button variant="light" size="sm" onClick={form.addIntervention} w="fit-content">
                {t('plans.editor.addIntervention')}
              </Button>
            ) : null}
          </Stack>
          <Group grow align="flex-start" wrap="wrap">
            <TextInput
              type="date"
              label={t('plans.targetDate')}
              value={values.targetDate}
              onChange={(e) => set.setTargetDate(e.currentTarget.value)}
              error={fieldError('targetDate')}
              miw={160}
            />
            <TextInput
              type="date"
              label={t('plans.reviewDate')}
              description={t('plans.editor.reviewHint')}
              required
              value={values.reviewDate}
              onChange={(e) => set.setReviewDate(e.currentTarget.value)}
              error={fieldError('reviewDate')}
              miw={160}
            />
          </Group>
          {save.error && Object.keys(errors).length === 0 ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(save.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('plans.editor.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
