import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';

import { AccessDenied } from '../../components/access-denied.tsx';
import { CrisisLines } from '../../components/crisis-lines/index.ts';
import { FullPageSpinner } from '../../components/full-page-spinner.tsx';
import { useAppConfig, useCurrentUser, useSessionEndReason } from '../../lib/auth.ts';
import { describeError } from '../../lib/errors.ts';
import { goToLogin, type LoginHandoff } from '../../lib/login-handoff.ts';
import { canUseAdminConsole, decideProtectedRoute, decidePublicOnlyRoute, type SessionCheck } from '../route-guard.ts';

function useSessionCheck(): SessionCheck & { retry: () => void; error: unknown } {
  const query = useCurrentUser();
  const config = useAppConfig();
  return {
    user: query.data,
    failed: query.isError && query.data === undefined,
    error: query.error,
    retry: () => {
      void query.refetch();
      // The configuration failed with the same outage; without it the practice name and timeout are unknown.
      if (config.isError) void config.refetch();
    },
  };
}

/** The public pages wait for the practice's configuration (its name), but show anyway if it fails. */
function useConfigSettled(): boolean {
  const config = useAppConfig();
  return !config.isPending || config.fetchStatus === 'idle';
}

/** `/` (when the app navigates there itself): only for people who are not signed in. */
export function PublicOnlyRoute() {
  const { t } = useTranslation();
  const check = useSessionCheck();
  const configSettled = useConfigSettled();
  const decision = decidePublicOnlyRoute(check);

  if (decision.type === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.type !== 'render' || !configSettled) return <FullPageSpinner label={t('checkingSession')} />;
  return <Outlet />;
}

/** Public pages open to everyone, signed in or not (`/home`, `/coming-soon`). */
export function PublicRoute() {
  const configSettled = useConfigSettled();
  if (!configSettled) return <FullPageSpinner />;
  return <Outlet />;
}

/** Every signed-in route. */
export function ProtectedRoute() {
  const { t } = useTranslation();
  const check = useSessionCheck();
  const endReason = useSessionEndReason();
  const location = useLocation();
  const decision = decideProtectedRoute(check, location, endReason);

  switch (decision.type) {
    case 'render':
      return <Outlet />;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'sign-in':
      return <SignInPage handoff={decision.handoff} />;
    case 'checking':
      return <FullPageSpinner label={t('checkingSession')} />;
    case 'check-failed':
      return <SessionCheckFailed message={describeError(check.error)} onRetry={check.retry} />;
  }
}

/** `/admin` and `/admin/*`: administrators only. */
export function AdminRoute() {
  const { t } = useTranslation(['common', 'shared']);
  const { data: user } = useCurrentUser();
  if (!canUseAdminConsole(user)) return <AccessDenied message={t('shared:messages.adminRequired')} />;
  return <Outlet />;
}

/**
 * Loads the sign-in page (the public site's own page, docs/decisions/013-sign-in-on-the-public-site.md). A
 * document load also drops everything this page still holds in memory of the person who was signed in.
 */
function SignInPage({ handoff }: { handoff: LoginHandoff }) {
  const { t } = useTranslation();
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    goToLogin(handoff, { replace: true });
  }, [handoff]);
  return <FullPageSpinner label={t('checkingSession')} />;
}

function SessionCheckFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation('errors');
  return (
    <Center mih="100dvh" p="md">
      <Stack maw={460} w="100%" gap="md">
        <Paper withBorder p="xl" role="alert">
          <Stack gap="md">
            <Title order={1} size="h3">
              {t('sessionCheckFailedTitle')}
            </Title>
            <Text>{message}</Text>
            <Button onClick={onRetry}>{t('retry')}</Button>
          </Stack>
        </Paper>
        {/* Needs no network: safety information stays available during an outage. */}
        <CrisisLines />
      </Stack>
    </Center>
  );
}
