import '../../../components/mantine-styles-public.ts';
import { Container, Stack, Text, Title } from '@mantine/core';
import { ERROR_CODES, VIDEO_GUEST_SIGNAL_PATH, VideoNameSchema, zonedDateTime } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

import { PublicPage } from '../../../components/public-site/public-page.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { firstIssueText } from '../../../lib/error-text.ts';
import { isGraphQLRequestError } from '../../../lib/graphql.ts';
import { useAppConfigValue } from '../../../lib/page-bootstrap.ts';
import { formatDay } from '../../../lib/practice-dates.ts';
import { guestVideoVisitQueryOptions, requestGuestVideoToken, toRtcIceServers } from '../api/video-api.ts';
import { FinalError } from '../lib/signalling.ts';
import { VideoCallSession } from '../lib/video-call-session.ts';
import { DeviceCheck } from './device-check.tsx';
import { JoinForm, useLocalMedia } from './join-form.tsx';
import { Closed, ClosedVisit, ConnectionFailed } from './call-outcomes.tsx';
import { CallScreens } from './video-call-screen.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { linkTokenFromHash } from '../../../lib/link-token.ts';

/**
 * `/video-call/guest/{appointmentId}#token`: a guest the provider invited (no account) checks their devices,
 * gives their name, waits and is let in. The page knows the visit only by the link's token.
 */
export function GuestVideoScreen() {
  const { t, i18n } = useTranslation(['video', 'shared']);
  usePageTitle(t('video:title'));
  const { hash } = useLocation();
  const guestToken = linkTokenFromHash(hash);
  const visit = useQuery({ ...guestVideoVisitQueryOptions(guestToken ?? ''), enabled: guestToken !== null });
  const config = useAppConfigValue();
  const zone = config?.practiceTimeZone ?? 'UTC';
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const media = useLocalMedia();
  const [failure, setFailure] = useState<string | null>(null);
  const [session, setSession] = useState<VideoCallSession | null>(null);

  const join = async () => {
    if (!guestToken) return;
    const parsed = VideoNameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(firstIssueText(parsed.error));
      return;
    }
    setNameError(null);
    const got = media.stream ? { stream: media.stream } : await media.request();
    if ('error' in got) {
      setFailure(got.error);
      return;
    }
    let first: Awaited<ReturnType<typeof requestGuestVideoToken>> | null;
    try {
      first = await requestGuestVideoToken(guestToken, parsed.data);
    } catch (error) {
      if (isGraphQLRequestError(error) && error.code === ERROR_CODES.videoClosed) {
        void visit.refetch();
        return;
      }
      setFailure(t('video:error.token', { reason: describeError(error) }));
      return;
    }
    const next = new VideoCallSession({
      localStream: got.stream,
      signallingPath: VIDEO_GUEST_SIGNAL_PATH,
      getToken: async () => {
        let token = first;
        first = null;
        if (!token) {
          try {
            token = await requestGuestVideoToken(guestToken, parsed.data);
          } catch (error) {
            if (isGraphQLRequestError(error) && error.code !== undefined) throw new FinalError(error.message);
            throw error;
          }
        }
        return { token: token.token, iceServers: toRtcIceServers(token.iceServers) };
      },
    });
    next.start();
    setSession(next);
  };

  let body;
  if (
    guestToken === null ||
    (visit.isError && isGraphQLRequestError(visit.error) && visit.error.code === 'NOT_FOUND')
  ) {
    body = <Closed message={t('shared:videoMessages.guestLinkInvalid')} />;
  } else if (visit.isPending) {
    body = <LoadingLine label={t('video:loadingVisit')} />;
  } else if (visit.isError) {
    body = <Closed message={describeError(visit.error)} />;
  } else if (visit.data.closedReason && !session) {
    body = <ClosedVisit visit={visit.data} />;
  } else if (session) {
    body = (
      <CallScreens
        session={session}
        visit={visit.data}
        isProvider={false}
        debug={false}
        onTryAgain={() => {
          session.dispose();
          media.forget();
          setSession(null);
        }}
        keepAlive={() => Promise.resolve()}
      />
    );
  } else if (failure) {
    body = <ConnectionFailed message={failure} log={[]} onTryAgain={() => setFailure(null)} />;
  } else {
    const starts = zonedDateTime(new Date(visit.data.startsAt), zone);
    body = (
      <Stack gap="md">
        <Text>
          {t('video:guestPage.with', { provider: visit.data.providerName })}
          <br />
          <Text span size="sm" c="dimmed">
            {formatDay(starts.date, i18n.language)}, {starts.time}
          </Text>
        </Text>
        <JoinForm
          name={name}
          onNameChange={setName}
          nameError={nameError}
          submitLabel={t('video:join.submit')}
          onSubmit={() => void join()}
        />
        <DeviceCheck
          stream={media.stream}
          mediaError={media.error}
          onRequestMedia={() => void media.request()}
          onSelectDevice={(kind, id) => void media.select(kind, id)}
          getIceServers={async () =>
            toRtcIceServers((await requestGuestVideoToken(guestToken, name.trim() || 'check')).iceServers)
          }
        />
      </Stack>
    );
  }

  return (
    <PublicPage>
      <Container size="lg" px={{ base: 'xs', sm: 'md' }} py="md" w="100%">
        <Stack gap="md">
          <div>
            <Title order={1} size="h2">
              {t('video:title')}
            </Title>
          </div>
          {body}
        </Stack>
      </Container>
    </PublicPage>
  );
}
