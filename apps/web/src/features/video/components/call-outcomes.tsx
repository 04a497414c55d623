import { Alert, Anchor, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { VIDEO_ERROR_LOG_LINES, VIDEO_MAX_PARTICIPANTS, zonedDateTime } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { noteAfterVisitLink } from '../../../lib/note-after-visit.ts';
import { useAppConfigValue } from '../../../lib/page-bootstrap.ts';
import type { VideoVisit } from '../api/video-api.ts';

/** A visit that cannot be joined, and why. */
export function Closed({ message }: { message: string }) {
  const { t } = useTranslation('video');
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('closed.heading')}
        </Title>
        <Alert color="red" role="alert">
          {message}
        </Alert>
        <Anchor component={Link} to="/dashboard">
          {t('closed.back')}
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** Why a visit cannot be joined now, in the person's language (the window's times are the practice's). */
export function ClosedVisit({ visit }: { visit: VideoVisit }) {
  const { t } = useTranslation('shared');
  const zone = useAppConfigValue()?.practiceTimeZone ?? 'UTC';
  const minutes =
    visit.closedReason === 'tooEarly'
      ? Math.round((Date.parse(visit.startsAt) - Date.parse(visit.opensAt)) / 60_000)
      : Math.round((Date.parse(visit.closesAt) - Date.parse(visit.endsAt)) / 60_000);
  // The reasons videoVisit answers (VideoVisitView.closedReason).
  const key = visit.closedReason as 'tooEarly' | 'tooLate' | 'cancelled' | 'finished' | 'notVideo';
  return (
    <Closed
      message={t(`videoMessages.${key}`, {
        minutes,
        opensAt: zonedDateTime(new Date(visit.opensAt), zone).time,
        max: VIDEO_MAX_PARTICIPANTS,
      })}
    />
  );
}

export function ConnectionFailed({
  message,
  log,
  onTryAgain,
}: {
  message: string;
  log: string[];
  onTryAgain: () => void;
}) {
  const { t } = useTranslation('video');
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('error.heading')}
        </Title>
        <Alert color="red" role="alert">
          {message}
        </Alert>
        {log.length > 0 ? (
          <div>
            <Text size="sm" fw={600}>
              {t('error.logHeading')}
            </Text>
            <Code block>{log.slice(-VIDEO_ERROR_LOG_LINES).join('\n')}</Code>
          </div>
        ) : null}
        <Button onClick={onTryAgain} style={{ alignSelf: 'flex-start' }}>
          {t('error.tryAgain')}
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * The end of a call, said from the person's side: the provider who ended the visit is offered the note; anyone
 * who left without ending it may rejoin while the visit goes on.
 */
export function Ended({
  reason,
  visit,
  isProvider,
  onRejoin,
}: {
  reason: string | null;
  visit: VideoVisit;
  isProvider: boolean;
  onRejoin: () => void;
}) {
  const { t } = useTranslation('video');
  const left = reason === 'left';
  const message =
    reason === 'provider-ended'
      ? isProvider
        ? t('ended.youEnded')
        : t('ended.byProvider')
      : left
        ? isProvider
          ? t('ended.providerLeft')
          : t('ended.left')
        : reason === 'cancelled'
          ? t('ended.cancelled')
          : reason === 'replaced'
            ? t('ended.replaced')
            : t('ended.other');
  const note =
    isProvider && reason === 'provider-ended' && visit.patientId
      ? noteAfterVisitLink(visit.patientId, visit.appointmentId)
      : null;
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {left ? t('ended.leftHeading') : t('ended.heading')}
        </Title>
        <Text role="status">{message}</Text>
        <Group gap="sm" wrap="wrap">
          {note ? (
            <Button component={Link} to={note.to} state={note.state}>
              {t('ended.writeNote')}
            </Button>
          ) : null}
          {left ? <Button onClick={onRejoin}>{t('ended.rejoin')}</Button> : null}
          <Button component={Link} to="/dashboard" variant={note || left ? 'default' : 'filled'}>
            {t('ended.back')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
