import { Group, List, Stack, Text, Title } from '@mantine/core';
import { goalProgress, type Instrument } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { ToneBadge, TONES } from '../../../components/tone-badge.tsx';
import { formatCalendarDate, formatInstantDateTime } from '../../../lib/practice-dates.ts';
import type { TreatmentPlanVersion } from '../api/treatment-plans-api.ts';

/** The latest total of each questionnaire, for a goal's progress (null: not known yet). */
export type LatestScores = Partial<Record<Instrument, number>> | null;

const STATUS_TONE = { active: 'blue', completed: 'teal', discontinued: 'gray' } as const;

/** The plan's status and whether this version is a draft or signed, in words (never the colour alone). */
export function TreatmentPlanBadges({ plan }: { plan: TreatmentPlanVersion }) {
  const { t } = useTranslation('clinical-record');
  return (
    <Group gap="xs" wrap="wrap">
      <ToneBadge tone={STATUS_TONE[plan.status]}>{t(`plans.status.${plan.status}`)}</ToneBadge>
      <ToneBadge tone={plan.signed ? 'teal' : 'yellow'}>
        {plan.signed ? t('plans.signedBadge') : t('plans.draftBadge')}
      </ToneBadge>
      <Text size="sm" c="dimmed">
        {t('plans.version', { version: plan.version })}
      </Text>
    </Group>
  );
}

/**
 * One version of a treatment plan as read: the problems with their codes, the goals (with how far the latest
 * score is from a goal's target when it names a questionnaire and `scores` are given), the interventions, the
 * dates, who signed it and when, and when the patient acknowledged it.
 */
export function TreatmentPlanView({
  plan,
  scores = null,
  headingOrder = 3,
  readByPatient = false,
}: {
  plan: TreatmentPlanVersion;
  scores?: LatestScores;
  headingOrder?: 3 | 4;
  /** The patient reads their own plan: the acknowledgement is theirs ("you"). */
  readByPatient?: boolean;
}) {
  const { t, i18n } = useTranslation('clinical-record');
  const date = (value: string) => formatCalendarDate(value, i18n.language);
  return (
    <Stack gap="sm">
      <Stack gap={4}>
        <Title order={headingOrder} size="h5">
          {t('plans.problems')}
        </Title>
        {plan.problems.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('plans.noProblems')}
          </Text>
        ) : (
          <List size="sm" spacing={2}>
            {plan.problems.map((p) => (
              <List.Item key={p.diagnosisId}>
                <Text span fw={600} size="sm">
                  {p.code}
                </Text>{' '}
                {p.title}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
      <Stack gap={4}>
        <Title order={headingOrder} size="h5">
          {t('plans.goals')}
        </Title>
        {plan.goals.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('plans.noGoals')}
          </Text>
        ) : (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {plan.goals.map((goal, index) => (
              <GoalItem key={index} goal={goal} scores={scores} />
            ))}
          </Stack>
        )}
      </Stack>
      <Stack gap={4}>
        <Title order={headingOrder} size="h5">
          {t('plans.interventions')}
        </Title>
        {plan.interventions.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('plans.noInterventions')}
          </Text>
        ) : (
          <List size="sm" spacing={2}>
            {plan.interventions.map((text, index) => (
              <List.Item key={index} style={{ whiteSpace: 'pre-wrap' }}>
                {text}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
      <Group gap="lg" style={{ rowGap: 2 }} wrap="wrap">
        {plan.targetDate ? (
          <Text size="sm">
            {t('plans.targetDate')}: {date(plan.targetDate)}
          </Text>
        ) : null}
        <Text size="sm">
          {t('plans.reviewDate')}: {date(plan.reviewDate)}
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {plan.signed && plan.signedAt
          ? t('plans.signedBy', {
              name: plan.signedByName ?? '',
              date: formatInstantDateTime(plan.signedAt, i18n.language),
            })
          : t('plans.draftBy', {
              name: plan.updatedByName,
              date: formatInstantDateTime(plan.updatedAt, i18n.language),
            })}
      </Text>
      {plan.signed && plan.acknowledgedAt ? (
        <Text size="sm" c={TONES.teal.text}>
          {t(readByPatient ? 'plans.youAcknowledgedAt' : 'plans.acknowledgedAt', {
            date: formatInstantDateTime(plan.acknowledgedAt, i18n.language),
          })}
        </Text>
      ) : plan.signed && !readByPatient ? (
        <Text size="sm" c="dimmed">
          {t('plans.notAcknowledged')}
        </Text>
      ) : null}
    </Stack>
  );
}

function GoalItem({ goal, scores }: { goal: TreatmentPlanVersion['goals'][number]; scores: LatestScores }) {
  const { t, i18n } = useTranslation('clinical-record');
  const latest = goal.instrument && scores ? scores[goal.instrument] : undefined;
  const progress = goalProgress(goal, latest);
  return (
    <Stack gap={2} component="li">
      <Text size="sm" fw={600}>
        {goal.description}
      </Text>
      {goal.instrument && goal.targetBelow !== null ? (
        <Text size="sm">
          {t('plans.goalTarget', {
            instrument: t(`plans.instrument.${goal.instrument}`),
            target: goal.targetBelow,
          })}
          {goal.targetDate ? ` ${t('plans.goalBy', { date: formatCalendarDate(goal.targetDate, i18n.language) })}` : ''}
        </Text>
      ) : goal.targetDate ? (
        <Text size="sm">{t('plans.goalBy', { date: formatCalendarDate(goal.targetDate, i18n.language) })}</Text>
      ) : null}
      {goal.instrument && goal.targetBelow !== null && scores ? (
        progress ? (
          <div>
            <ToneBadge tone={progress.met ? 'teal' : 'orange'}>
              {progress.met
                ? t('plans.progressMet', { total: latest })
                : t('plans.progressToGo', { total: latest, count: progress.pointsToGo })}
            </ToneBadge>
          </div>
        ) : (
          <Text size="sm" c="dimmed">
            {t('plans.noScoreYet')}
          </Text>
        )
      ) : null}
    </Stack>
  );
}
