import { Alert, Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { ERROR_CODES, VIDEO_MAX_PARTICIPANTS, VideoNameSchema, zonedDateTime } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';

import { ShareLinkBox } from '../../../components/share-link-box.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { firstIssueText } from '../../../lib/error-text.ts';
import { isGraphQLRequestError } from '../../../lib/graphql.ts';
import { useAppConfigValue } from '../../../lib/page-bootstrap.ts';
import { formatDay } from '../../../lib/practice-dates.ts';
import {
  requestVideoToken,
  startRecording,
  stopRecording,
  toRtcIceServers,
  videoVisitQueryOptions,
  type VideoVisit,
} from '../api/video-api.ts';
import { FinalError } from '../lib/signalling.ts';
import type { CallSnapshot } from '../lib/call-snapshot.ts';
import { VideoCallSession } from '../lib/video-call-session.ts';
import { DeviceCheck, TestRecording } from './device-check.tsx';
import { GuestInvite } from './guest-invite.tsx';
import { JoinForm, useLocalMedia } from './join-form.tsx';
import { InCall } from './in-call.tsx';
import { Closed, ClosedVisit, ConnectionFailed, Ended } from './call-outcomes.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';

/** While a visit is open the page asks for a fresh token this often: the visit is activity for the session. */
const TOKEN_REFRESH_MS = 4 * 60_000;

/**
 * `/video-call/{appointmentId}` and the provider's start mode `/video-call/start/{appointmentId}`: the
 * specification's screens (join, loading, in-call, error, ended), the device and network check before joining,
 * the waiting room, and the call itself. Only the appointment's provider and patient get past the first query.
 */
export function VideoCallScreen({
  startMode,
  consentStep,
}: {
  startMode: boolean;
  /**
   * The telehealth consent to read and sign in the waiting room when the practice asks for it before a visit
   * (decision 069); the route gives it (a feature never imports another). `onSigned` joins again.
   */
  consentStep?: ConsentStep;
}) {
  const { t, i18n } = useTranslation('video');
  const { appointmentId = '' } = useParams();
  const zone = useAppConfigValue()?.practiceTimeZone ?? 'UTC';
  const visit = useQuery({ ...videoVisitQueryOptions(appointmentId), enabled: appointmentId !== '' });
  const [stage, setStage] = useState<CallStage>('join');
  const joinTitle = startMode ? t('startTitle') : t('title');
  // The other person of the visit: the provider sees the patient's name, the patient the provider's.
  const other = visit.data ? (visit.data.role === 'provider' ? visit.data.patientName : visit.data.providerName) : '';
  const heading = stage === 'join' || !other ? joinTitle : t('visitWith', { name: other });
  usePageTitle(stage === 'join' || !other ? joinTitle : t(`pageTitle.${stage}`, { name: other }));

  let body;
  if (visit.isPending) {
    body = <LoadingLine label={t('loadingVisit')} />;
  } else if (visit.isError) {
    body = <Closed message={describeError(visit.error)} />;
  } else {
    body = (
      <VisitScreens
        visit={visit.data}
        startMode={startMode}
        consentStep={consentStep}
        onClosed={() => void visit.refetch()}
        onStage={setStage}
      />
    );
  }
  return (
    <Container size="lg" px={{ base: 'xs', sm: 'md' }} py="md">
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            {heading}
          </Title>
          {visit.data ? (
            <Text size="sm" c="dimmed">
              {t('with', { patient: visit.data.patientName, provider: visit.data.providerName })}
              {' · '}
              {t('when', visitTime(visit.data, zone, i18n.language))}
            </Text>
          ) : null}
        </div>
        {body}
      </Stack>
    </Container>
  );
}

/** Where a person is in a visit, for the page's heading and the document's title. */
export type CallStage = 'join' | 'waiting' | 'inCall' | 'ended';

/** The visit's day and hours in the practice's time zone, for the `when` message ("Thu, Nov 26, 10:00–10:30"). */
export function visitTime(visit: Pick<VideoVisit, 'startsAt' | 'endsAt'>, zone: string, language: string) {
  const starts = zonedDateTime(new Date(visit.startsAt), zone);
  return {
    date: formatDay(starts.date, language),
    start: starts.time,
    end: zonedDateTime(new Date(visit.endsAt), zone).time,
  };
}

/** The consent's reading and signing, given by the route (decision 069). */
export type ConsentStep = (props: { onSigned: () => void }) => ReactNode;

/** The join was refused because the patient has not signed the telehealth consent (decision 069). */
function isConsentRefusal(error: unknown): boolean {
  return (
    isGraphQLRequestError(error) &&
    error.errors.some(
      (entry) => entry.extensions?.code === ERROR_CODES.videoClosed && entry.extensions['reason'] === 'consentRequired',
    )
  );
}

type Screen =
  | { kind: 'join' }
  | { kind: 'consent' }
  | { kind: 'loading' }
  | { kind: 'call'; session: VideoCallSession }
  | { kind: 'error'; message: string; log: string[] };

function VisitScreens({
  visit,
  startMode,
  consentStep,
  onClosed,
  onStage,
}: {
  visit: VideoVisit;
  startMode: boolean;
  consentStep: ConsentStep | undefined;
  onClosed: () => void;
  onStage: (stage: CallStage) => void;
}) {
  const { t } = useTranslation(['video', 'shared']);
  const { data: user } = useCurrentUser();
  const config = useAppConfigValue();
  const [name, setName] = useState(user?.name ?? '');
  const [nameError, setNameError] = useState<string | null>(null);
  const media = useLocalMedia();
  const { stream, error: mediaError, request: requestMedia } = media;
  const [screen, setScreen] = useState<Screen>({ kind: 'join' });
  const isProvider = visit.role === 'provider';

  /** Joins the visit; `again` (rejoining after leaving) asks for the camera anew, as leaving stopped it. */
  const join = async (again = false) => {
    const parsed = VideoNameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(firstIssueText(parsed.error));
      return;
    }
    setNameError(null);
    setScreen({ kind: 'loading' });
    const got = stream && !again ? { stream } : await requestMedia();
    if ('error' in got) {
      setScreen({ kind: 'error', message: got.error, log: [] });
      return;
    }
    const local = got.stream;
    let first;
    try {
      first = await requestVideoToken(parsed.data, visit.room);
    } catch (error) {
      if (isConsentRefusal(error) && consentStep) {
        setScreen({ kind: 'consent' });
        return;
      }
      if (isGraphQLRequestError(error) && error.code === ERROR_CODES.videoClosed) {
        onClosed();
        setScreen({ kind: 'join' });
        return;
      }
      setScreen({ kind: 'error', message: t('video:error.token', { reason: describeError(error) }), log: [] });
      return;
    }
    let pending: typeof first | null = first;
    const session = new VideoCallSession({
      localStream: local,
      getToken: async () => {
        const token = pending ?? (await fresh(parsed.data, visit.room));
        pending = null;
        return { token: token.token, iceServers: toRtcIceServers(token.iceServers) };
      },
      ...relayPolicy(),
      ...(isProvider
        ? {
            recordingCalls: {
              start: async () =>
                (
                  await startRecording({
                    roomSid: visit.room,
                    identity: parsed.data,
                    appointmentId: visit.appointmentId,
                  })
                ).recordingSid,
              stop: async (recordingSid: string) => {
                await stopRecording({ recordingSid, roomSid: visit.room });
              },
            },
          }
        : {}),
    });
    session.start();
    setScreen({ kind: 'call', session });
  };

  const inCall = screen.kind === 'call';
  useEffect(() => {
    if (!inCall) onStage('join');
  }, [inCall, onStage]);

  if (visit.closedReason) return <ClosedVisit visit={visit} />;

  if (screen.kind === 'call') {
    return (
      <CallScreens
        session={screen.session}
        visit={visit}
        isProvider={isProvider}
        debug={config?.demoMode ?? false}
        onStage={onStage}
        onTryAgain={() => {
          screen.session.dispose();
          media.forget();
          setScreen({ kind: 'join' });
        }}
        onRejoin={() => {
          screen.session.dispose();
          media.forget();
          void join(true);
        }}
        keepAlive={() => requestVideoToken(name.trim() || 'visit', visit.room)}
        onConsentRequired={
          consentStep
            ? () => {
                screen.session.dispose();
                setScreen({ kind: 'consent' });
              }
            : undefined
        }
      />
    );
  }
  if (screen.kind === 'consent' && consentStep) {
    return (
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" component="section" aria-labelledby="consent-heading">
        <Stack gap="md">
          <Title order={2} size="h3" id="consent-heading">
            {t('video:consent.heading')}
          </Title>
          <Alert color="blue" variant="light" role="status">
            {t('shared:videoMessages.consentRequired')}
          </Alert>
          {consentStep({ onSigned: () => void join() })}
        </Stack>
      </Paper>
    );
  }
  if (screen.kind === 'loading') {
    return <LoadingLine label={t('video:loading')} />;
  }
  if (screen.kind === 'error') {
    return (
      <ConnectionFailed message={screen.message} log={screen.log} onTryAgain={() => setScreen({ kind: 'join' })} />
    );
  }

  return (
    <Stack gap="md">
      <JoinForm
        name={name}
        onNameChange={setName}
        nameError={nameError}
        submitLabel={startMode ? t('video:join.startSubmit') : t('video:join.submit')}
        onSubmit={() => void join()}
      />
      <DeviceCheck
        stream={stream}
        mediaError={mediaError}
        onRequestMedia={() => void requestMedia()}
        onSelectDevice={(kind, id) => void media.select(kind, id)}
        getIceServers={async () =>
          toRtcIceServers((await requestVideoToken(name.trim() || 'check', visit.room)).iceServers)
        }
      />
      {startMode && isProvider ? (
        <>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="xs">
              {t('video:share.heading')}
            </Title>
            <ShareLinkBox appointmentId={visit.appointmentId} />
          </Paper>
          <GuestInvite appointmentId={visit.appointmentId} />
          <TestRecording stream={stream} />
        </>
      ) : null}
    </Stack>
  );
}

async function fresh(identity: string, room: string) {
  try {
    return await requestVideoToken(identity, room);
  } catch (error) {
    if (isGraphQLRequestError(error) && error.code !== undefined) throw new FinalError(error.message);
    throw error;
  }
}

/** Tests force calls through the TURN relay with `?relay=1`. */
function relayPolicy(): { iceTransportPolicy?: RTCIceTransportPolicy } {
  return window.location.search.includes('relay=1') ? { iceTransportPolicy: 'relay' } : {};
}

export function CallScreens({
  session,
  visit,
  isProvider,
  debug,
  onStage,
  onTryAgain,
  onRejoin = onTryAgain,
  keepAlive,
  onConsentRequired,
}: {
  session: VideoCallSession;
  visit: VideoVisit;
  isProvider: boolean;
  debug: boolean;
  /** Told where the person is (waiting, in the call, ended), for the page's title. */
  onStage?: (stage: CallStage) => void;
  onTryAgain: () => void;
  /** Joins again after leaving (the visit goes on until the provider ends it). */
  onRejoin?: () => void;
  /** Asked every few minutes while in the visit (a fresh token: the visit is activity for the session). */
  keepAlive: () => Promise<unknown>;
  /** The socket refused the patient for the telehealth consent (decision 069): the consent is shown to sign. */
  onConsentRequired?: (() => void) | undefined;
}) {
  const { t } = useTranslation(['video', 'shared']);
  const snapshot: CallSnapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);

  useEffect(() => () => session.dispose(), [session]);
  const { phase } = snapshot;
  useEffect(() => {
    if (phase === 'waiting') onStage?.('waiting');
    else if (phase === 'in-call') onStage?.('inCall');
    else if (phase === 'ended') onStage?.('ended');
    else if (phase === 'error') onStage?.('join');
  }, [phase, onStage]);
  const consentRequired = phase === 'ended' && snapshot.endedReason === 'consentRequired';
  const askConsent = useEffectEvent(() => onConsentRequired?.());
  useEffect(() => {
    if (consentRequired) askConsent();
  }, [consentRequired]);
  // Leaving the page (closing the tab) tells the others at once.
  useEffect(() => {
    const leave = () => session.dispose();
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [session]);
  // The visit is activity: a fresh token now and then keeps the session from logging off mid-call.
  const refresh = useEffectEvent(() => void keepAlive().catch(() => undefined));
  useEffect(() => {
    if (snapshot.phase !== 'in-call' && snapshot.phase !== 'waiting') return;
    const timer = setInterval(refresh, TOKEN_REFRESH_MS);
    return () => clearInterval(timer);
  }, [snapshot.phase]);

  switch (snapshot.phase) {
    case 'loading':
      return <LoadingLine label={t('loading')} />;
    case 'waiting':
      return (
        <Paper withBorder p="lg" radius="md">
          <Stack gap="sm">
            <Title order={2} size="h3">
              {t('waiting.heading')}
            </Title>
            <Text role="status" fw={600}>
              {t('waiting.body')}
            </Text>
            <Text size="sm">{t('waiting.keepOpen')}</Text>
            {snapshot.notices.map((text, i) => (
              <Alert key={i} color="blue" role="status">
                {t('waiting.message', { text })}
              </Alert>
            ))}
            <Button variant="default" onClick={() => session.leave()} style={{ alignSelf: 'flex-start' }}>
              {t('waiting.leave')}
            </Button>
          </Stack>
        </Paper>
      );
    case 'in-call':
      return (
        <InCall
          session={session}
          snapshot={snapshot}
          isProvider={isProvider}
          room={visit.room}
          appointmentId={visit.appointmentId}
          patientName={visit.patientName}
          debug={debug}
        />
      );
    case 'ended':
      if (
        snapshot.endedReason === 'consentRequired' ||
        snapshot.endedReason === 'tokenInvalid' ||
        snapshot.endedReason === 'roomFull' ||
        snapshot.endedReason === 'notYourVisit'
      ) {
        return (
          <ConnectionFailed
            message={t(`shared:videoMessages.${snapshot.endedReason}`, { max: VIDEO_MAX_PARTICIPANTS })}
            log={snapshot.log}
            onTryAgain={onTryAgain}
          />
        );
      }
      return <Ended reason={snapshot.endedReason} visit={visit} isProvider={isProvider} onRejoin={onRejoin} />;
    case 'error':
      return (
        <ConnectionFailed message={snapshot.error ?? t('error.lost')} log={snapshot.log} onTryAgain={onTryAgain} />
      );
  }
}
