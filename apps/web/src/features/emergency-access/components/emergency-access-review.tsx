import {
  Alert,
  Anchor,
  Badge,
  Button,
  DataList,
  Group,
  Paper,
  Radio,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import {
  EMERGENCY_REVIEW_FILTERS,
  EMERGENCY_REVIEW_NOTE_MAX,
  EMERGENCY_REVIEW_OUTCOMES,
  type EmergencyReviewFilter,
  type EmergencyReviewOutcome,
} from '@telehealth/shared';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { formatInstantDateTime } from '../../../lib/practice-dates.ts';
import {
  useEmergencyActivity,
  useEmergencyUses,
  useReviewEmergencyAccess,
  type EmergencyUse,
} from '../api/emergency-access-api.ts';
import { formatClockTime, minutesBetween } from '../utils/format.ts';

/**
 * The administrators' review of emergency access (the Emergency access tab of `/admin/security`): each use with
 * who, which patient, when, how long, why and what was opened, and the review's outcome.
 */
export function EmergencyAccessReview() {
  const { t } = useTranslation('emergency-access');
  const [filter, setFilter] = useState<EmergencyReviewFilter>('awaiting');
  const uses = useEmergencyUses(filter);
  const items = uses.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack gap="md">
      <Text size="sm">{t('review.intro')}</Text>
      <Stack gap={4}>
        <Text size="sm" fw={600} id="emergency-filter-label">
          {t('review.filter')}
        </Text>
        <SegmentedControl
          aria-labelledby="emergency-filter-label"
          value={filter}
          onChange={(value) => setFilter(value)}
          data={EMERGENCY_REVIEW_FILTERS.map((f) => ({ value: f, label: t(`review.filters.${f}`) }))}
          w="fit-content"
        />
      </Stack>
      {uses.isPending ? <LoadingLine label={t('review.filters.all')} /> : null}
      {uses.isError ? (
        <Alert color="red" variant="light" role="alert">
          {t('review.loadError')}
        </Alert>
      ) : null}
      {uses.isSuccess && items.length === 0 ? <Text c="dimmed">{t('review.empty')}</Text> : null}
      <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {items.map((use) => (
          <EmergencyUseCard key={use.id} use={use} />
        ))}
      </Stack>
      {uses.hasNextPage ? (
        <Button
          variant="default"
          w="fit-content"
          loading={uses.isFetchingNextPage}
          onClick={() => void uses.fetchNextPage()}
        >
          {t('review.more')}
        </Button>
      ) : null}
    </Stack>
  );
}

function EmergencyUseCard({ use }: { use: EmergencyUse }) {
  const { t, i18n } = useTranslation('emergency-access');
  const [showActivity, setShowActivity] = useState(false);
  const end = use.endedAt ?? use.endsAt;
  const lasted = minutesBetween(use.startedAt, use.active ? new Date().toISOString() : end);
  return (
    <Paper component="li" withBorder p="md" radius="md" aria-label={`${use.providerName} — ${use.patientName}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5">
            {use.providerName} → {use.patientName}
          </Title>
          {use.reviewOutcome ? (
            <Badge color={use.reviewOutcome === 'appropriate' ? 'teal.9' : 'red.9'}>
              {t(`review.outcomes.${use.reviewOutcome}`)}
            </Badge>
          ) : (
            <Badge color="dark">{t('review.awaiting')}</Badge>
          )}
        </Group>
        <DataList size="sm" gap="xs" orientation="vertical">
          <DataList.Item>
            <DataList.ItemLabel>{t('review.provider')}</DataList.ItemLabel>
            <DataList.ItemValue style={{ overflowWrap: 'anywhere' }}>
              {use.providerName} ({use.providerEmail})
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('review.patient')}</DataList.ItemLabel>
            <DataList.ItemValue>
              <Anchor component={Link} to={`/patients/${use.patientId}`}>
                {use.patientName}
              </Anchor>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('review.when')}</DataList.ItemLabel>
            <DataList.ItemValue>{formatInstantDateTime(use.startedAt, i18n.language)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('review.duration')}</DataList.ItemLabel>
            <DataList.ItemValue>
              {use.active
                ? t('review.activeNow', { time: formatClockTime(use.endsAt, i18n.language) })
                : `${t('review.minutes', { count: lasted })}${use.endedAt ? ` (${t('review.endedEarly')})` : ''}`}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('review.reason')}</DataList.ItemLabel>
            <DataList.ItemValue style={{ whiteSpace: 'pre-wrap' }}>{use.reason}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('review.opened')}</DataList.ItemLabel>
            <DataList.ItemValue>
              <Stack gap={4} align="flex-start">
                <Text size="sm">{t('review.openedCount', { count: use.activityCount })}</Text>
                {use.activityCount > 0 ? (
                  <Button
                    size="xs"
                    variant="subtle"
                    aria-expanded={showActivity}
                    onClick={() => setShowActivity((v) => !v)}
                  >
                    {t('review.showOpened')}
                  </Button>
                ) : null}
                {showActivity ? <ActivityList id={use.id} /> : null}
              </Stack>
            </DataList.ItemValue>
          </DataList.Item>
        </DataList>
        {use.reviewOutcome ? (
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {t('review.reviewedBy', {
                name: use.reviewedByName ?? '',
                date: use.reviewedAt ? formatInstantDateTime(use.reviewedAt, i18n.language) : '',
              })}
            </Text>
            {use.reviewNote ? (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {use.reviewNote}
              </Text>
            ) : null}
          </Stack>
        ) : (
          <ReviewForm id={use.id} />
        )}
      </Stack>
    </Paper>
  );
}

function ActivityList({ id }: { id: string }) {
  const { t, i18n } = useTranslation('emergency-access');
  const activity = useEmergencyActivity(id, true);
  if (activity.isPending) return <LoadingLine label={t('review.showOpened')} />;
  if (activity.isError) return <Text size="sm">{describeError(activity.error)}</Text>;
  if (activity.data.length === 0) return <Text size="sm">{t('review.nothingOpened')}</Text>;
  const known = [
    'PATIENT_CHART_VIEW',
    'PATIENT_VIEW',
    'MEDICAL_RECORD_ACCESS',
    'QUESTIONNAIRE_VIEW',
    'CLINICAL_RECORD_VIEW',
    'INTAKE_VIEW',
    'INTAKE_CARD_PHOTO_DOWNLOAD',
  ] as const;
  return (
    <Stack gap={2} component="ol" style={{ paddingLeft: 18, margin: 0 }}>
      {activity.data.map((entry, index) => {
        const event = known.find((k) => k === entry.event);
        return (
          <Text component="li" size="sm" key={`${entry.timestamp}-${index}`}>
            {formatClockTime(entry.timestamp, i18n.language)} —{' '}
            {event ? t(`events.${event}`) : t('events.other', { event: entry.event })}
          </Text>
        );
      })}
    </Stack>
  );
}

function ReviewForm({ id }: { id: string }) {
  const { t } = useTranslation('emergency-access');
  const review = useReviewEmergencyAccess();
  const [outcome, setOutcome] = useState<EmergencyReviewOutcome | ''>('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ outcome?: string; note?: string }>({});
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!outcome) found.outcome = t('review.chooseOutcome');
    if (outcome === 'inappropriate' && !note.trim()) found.note = t('review.noteRequired');
    setErrors(found);
    if (!outcome || Object.keys(found).length > 0) return;
    review.mutate({ id, outcome, note: note.trim() || null });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Radio.Group
          label={t('review.outcome')}
          required
          value={outcome}
          onChange={(value) => setOutcome(value)}
          error={errors.outcome}
        >
          <Group gap="md" mt={4}>
            {EMERGENCY_REVIEW_OUTCOMES.map((o) => (
              <Radio key={o} value={o} label={t(`review.outcomes.${o}`)} />
            ))}
          </Group>
        </Radio.Group>
        <Textarea
          label={t('review.note')}
          description={t('review.noteHint')}
          autosize
          minRows={2}
          maxLength={EMERGENCY_REVIEW_NOTE_MAX}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          error={errors.note}
        />
        {review.error ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(review.error)}
          </Alert>
        ) : null}
        <Button type="submit" w="fit-content" loading={review.isPending}>
          {t('review.save')}
        </Button>
      </Stack>
    </form>
  );
}
