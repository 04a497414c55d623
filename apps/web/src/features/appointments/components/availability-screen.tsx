import { ActionIcon, Alert, Button, Code, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { SetWorkingHoursInputSchema, WEEKDAYS, type WorkingHoursInterval } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ProviderPicker } from '../../../components/person-pickers.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatDay } from '../../../lib/practice-dates.ts';
import { firstIssueText } from '../../../lib/error-text.ts';
import {
  availabilityQueryOptions,
  calendarFeedQueryOptions,
  useAddTimeOff,
  useCreateCalendarFeed,
  useRemoveTimeOff,
  useRevokeCalendarFeed,
  useSetWorkingHours,
  type Availability,
} from '../api/appointments-api.ts';

/**
 * A time field as wide as the browser's own way of showing a time ("08:00 AM" with its clock button, wider with some
 * platforms' fonts): a fixed 150 px cut it to "08:00 A" (issue 25, as on the practice's default working hours).
 */
const TIME_FIELD_WIDTH = 'auto';

/** `/availability`: a provider's weekly hours, time off and private calendar feed (administrators: any provider). */
export function AvailabilityScreen() {
  const { t } = useTranslation('appointments');
  usePageTitle(t('availability.title'));
  const { data: user } = useCurrentUser();
  const isAdmin = user?.role === 'admin';
  const [chosen, setChosen] = useState<string | null>(null);
  const providerId = isAdmin ? chosen : (user?.userId ?? null);
  const availability = useQuery({ ...availabilityQueryOptions(providerId ?? ''), enabled: providerId !== null });
  return (
    <Stack gap="lg" maw={860}>
      <Title order={1}>{t('availability.title')}</Title>
      {isAdmin ? <ProviderPicker label={t('availability.provider')} value={chosen} onChange={setChosen} /> : null}
      {providerId === null ? null : availability.isPending ? (
        <Group gap="xs" role="status">
          <Loader size="sm" aria-hidden />
        </Group>
      ) : availability.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(availability.error)}
        </Alert>
      ) : (
        <>
          <WorkingHoursEditor key={providerId} availability={availability.data} />
          <TimeOffEditor availability={availability.data} />
          <CalendarFeed providerId={providerId} />
        </>
      )}
    </Stack>
  );
}

function WorkingHoursEditor({ availability }: { availability: Availability }) {
  const { t } = useTranslation('appointments');
  const [intervals, setIntervals] = useState<WorkingHoursInterval[]>(availability.workingHours);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSetWorkingHours();
  const change = (index: number, field: 'startTime' | 'endTime', value: string) => {
    setIntervals((list) => list.map((interval, i) => (i === index ? { ...interval, [field]: value } : interval)));
    setProblem(null);
    save.reset();
  };
  const submit = () => {
    const parsed = SetWorkingHoursInputSchema.safeParse({ providerId: availability.providerId, intervals });
    if (!parsed.success) {
      setProblem(firstIssueText(parsed.error));
      return;
    }
    save.mutate({ providerId: availability.providerId, intervals });
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="hours-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="hours-title">
          {t('availability.hours')}
        </Title>
        {!availability.custom ? <Text size="sm">{t('availability.defaultHours')}</Text> : null}
        {WEEKDAYS.map((weekday) => {
          const label = t(`weekday.${weekday}`);
          const rows = intervals
            .map((interval, index) => ({ interval, index }))
            .filter((r) => r.interval.weekday === weekday);
          return (
            <Stack key={weekday} gap={4}>
              <Group gap="sm" wrap="wrap" align="center">
                <Text fw={600} miw={110}>
                  {label}
                </Text>
                {rows.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('availability.noHours')}
                  </Text>
                ) : null}
                <Button
                  size="compact-xs"
                  variant="subtle"
                  aria-label={`${t('availability.addInterval')}: ${label}`}
                  onClick={() => setIntervals((list) => [...list, { weekday, startTime: '09:00', endTime: '17:00' }])}
                >
                  {t('availability.addInterval')}
                </Button>
              </Group>
              {rows.map(({ interval, index }) => (
                <Group key={index} gap="xs" wrap="wrap" pl={{ base: 0, sm: 118 }}>
                  <TextInput
                    type="time"
                    step={900}
                    label={`${label}: ${t('availability.from')}`}
                    value={interval.startTime}
                    onChange={(e) => change(index, 'startTime', e.currentTarget.value)}
                    w={TIME_FIELD_WIDTH}
                  />
                  <TextInput
                    type="time"
                    step={900}
                    label={`${label}: ${t('availability.to')}`}
                    value={interval.endTime}
                    onChange={(e) => change(index, 'endTime', e.currentTarget.value)}
                    w={TIME_FIELD_WIDTH}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={24}
                    aria-label={`${t('availability.removeInterval')} (${label} ${interval.startTime}-${interval.endTime})`}
                    onClick={() => setIntervals((list) => list.filter((_, i) => i !== index))}
                  >
                    ×
                  </ActionIcon>
                </Group>
              ))}
            </Stack>
          );
        })}
        {problem ? (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        ) : null}
        {save.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(save.error)}
          </Alert>
        ) : null}
        {save.isSuccess ? (
          <Alert color="green" variant="light" role="status">
            {t('availability.saved')}
          </Alert>
        ) : null}
        <Button onClick={submit} loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
          {t('availability.saveHours')}
        </Button>
      </Stack>
    </Paper>
  );
}

function TimeOffEditor({ availability }: { availability: Availability }) {
  const { t, i18n } = useTranslation('appointments');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [label, setLabel] = useState('');
  const add = useAddTimeOff();
  const remove = useRemoveTimeOff();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="time-off-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="time-off-title">
          {t('availability.timeOff')}
        </Title>
        {availability.timeOff.length === 0 ? <Text size="sm">{t('availability.noTimeOff')}</Text> : null}
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {availability.timeOff.map((off) => (
            <Group key={off.id} component="li" gap="sm" wrap="wrap">
              <Text size="sm">
                {formatDay(off.startDate, i18n.language)}
                {off.endDate !== off.startDate ? ` – ${formatDay(off.endDate, i18n.language)}` : ''}
                {off.label ? ` · ${off.label}` : ''}
              </Text>
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => remove.mutate({ providerId: availability.providerId, id: off.id })}
              >
                {t('availability.removeTimeOff')}
              </Button>
            </Group>
          ))}
        </Stack>
        <Group gap="sm" wrap="wrap" align="flex-end">
          <TextInput
            type="date"
            label={t('availability.start')}
            value={start}
            onChange={(e) => setStart(e.currentTarget.value)}
          />
          <TextInput
            type="date"
            label={t('availability.end')}
            value={end}
            onChange={(e) => setEnd(e.currentTarget.value)}
          />
          <TextInput label={t('availability.label')} value={label} onChange={(e) => setLabel(e.currentTarget.value)} />
          <Button
            variant="light"
            loading={add.isPending}
            onClick={() =>
              add.mutate(
                {
                  providerId: availability.providerId,
                  startDate: start,
                  endDate: end || start,
                  label: label.trim() || null,
                },
                {
                  onSuccess: () => {
                    setStart('');
                    setEnd('');
                    setLabel('');
                  },
                },
              )
            }
          >
            {t('availability.addTimeOff')}
          </Button>
        </Group>
        {add.isError || remove.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(add.error ?? remove.error)}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}

function CalendarFeed({ providerId }: { providerId: string }) {
  const { t, i18n } = useTranslation('appointments');
  const feed = useQuery(calendarFeedQueryOptions(providerId));
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  const [url, setUrl] = useState<string | null>(null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="feed-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="feed-title">
          {t('availability.feed')}
        </Title>
        <Text size="sm">{t('availability.feedIntro')}</Text>
        <Text size="sm">
          {feed.data?.active && feed.data.createdAt
            ? t('availability.feedActive', { date: formatDay(feed.data.createdAt.slice(0, 10), i18n.language) })
            : t('availability.feedInactive')}
        </Text>
        {url ? (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              {t('availability.feedUrl')}
            </Text>
            <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {url}
            </Code>
            <Text size="sm">{t('availability.feedShownOnce')}</Text>
          </Stack>
        ) : null}
        <Group gap="xs">
          <Button
            variant="light"
            loading={create.isPending}
            onClick={() => create.mutate(providerId, { onSuccess: (created) => setUrl(created) })}
          >
            {feed.data?.active ? t('availability.feedRenew') : t('availability.feedCreate')}
          </Button>
          {feed.data?.active ? (
            <Button
              variant="default"
              color="red"
              loading={revoke.isPending}
              onClick={() => revoke.mutate(providerId, { onSuccess: () => setUrl(null) })}
            >
              {t('availability.feedRevoke')}
            </Button>
          ) : null}
        </Group>
        {create.isError || revoke.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(create.error ?? revoke.error)}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
