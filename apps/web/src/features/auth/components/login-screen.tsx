import { Alert, Box, Button, Divider, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { EmailSchema } from '@telehealth/shared';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

import { BrandMark } from '../../../components/brand-mark.tsx';
import { CrisisLines } from '../../../components/crisis-lines.tsx';
import { EmergencyBanner } from '../../../components/emergency-banner/index.ts';
import { LanguageSwitcher } from '../../../components/public-site/language-switcher.tsx';
import type { AppConfig } from '../../../lib/auth.ts';
import type { AccessRequestKind } from './access-request-panel.tsx';
import { DemoAccounts } from './demo-accounts.tsx';
import classes from './login-screen.module.css';
import { SignInForm } from './sign-in-form.tsx';

// The request forms are most of the screen's code and few visitors open them: loaded when one is chosen, and
// already asked for when the pointer or the keyboard reaches its button.
const loadAccessRequestPanel = () => import('./access-request-panel.tsx');
const AccessRequestPanel = lazy(async () => ({ default: (await loadAccessRequestPanel()).AccessRequestPanel }));
const prefetchAccessRequestPanel = () => {
  void loadAccessRequestPanel();
};

export interface LoginScreenProps {
  practiceName: string;
  /** The demo accounts to offer, or null when the server is not in demo mode. */
  demoAccounts: AppConfig['demoAccounts'] | null;
  sessionExpired: boolean;
}

type Mode = 'sign-in' | AccessRequestKind;

// Long labels ("I'm a Healthcare Provider") wrap instead of being cut off on narrow cards.
const wrapLabel = { label: { whiteSpace: 'normal', textAlign: 'center' } } as const;

/**
 * The address the account pages pass in router state (never in the URL) after a password was set or reset,
 * when it is one.
 */
export function emailFromLocationState(state: unknown): string | null {
  if (state === null || typeof state !== 'object' || !('email' in state)) return null;
  const parsed = EmailSchema.safeParse(state.email);
  return parsed.success ? parsed.data : null;
}

/** /login: sign in, the demo accounts in demo mode, and the way to request access. */
export function LoginScreen({ practiceName, demoAccounts, sessionExpired }: LoginScreenProps) {
  const { t } = useTranslation(['auth', 'shared']);
  const location = useLocation();
  // Read once: the address belongs to this arrival.
  const [knownEmail] = useState(() => emailFromLocationState(location.state));
  const [mode, setMode] = useState<Mode>('sign-in');

  return (
    <div className={mode === 'sign-in' ? classes.page : classes.formPage}>
      <Box className={classes.aside} component="aside" aria-label={t('aside.title')}>
        <Link to="/" className={classes.asideBrand} aria-label={t('brandHome', { practiceName })}>
          <BrandMark size={40} inverted />
          <span>{practiceName}</span>
        </Link>
        <Stack gap="md" maw={420}>
          <Title order={2} c="white" size="h1" lh={1.15}>
            {t('aside.title')}
          </Title>
          <Text c="clinical.0" size="lg">
            {t('aside.body')}
          </Text>
        </Stack>
        <CrisisLines bg="white" />
      </Box>

      <main className={classes.main} id="main-content">
        <div className={classes.topRow}>
          <Link to="/" className={classes.mobileBrand} aria-label={t('brandHome', { practiceName })}>
            <BrandMark size={34} />
            <span>{practiceName}</span>
          </Link>
          <LanguageSwitcher />
        </div>
        <EmergencyBanner />
        <Paper
          className={mode === 'sign-in' ? classes.card : classes.wideCard}
          withBorder
          shadow="sm"
          p={{ base: 'lg', sm: 'xl' }}
        >
          {mode === 'sign-in' ? (
            <Stack gap="lg">
              <div>
                <Title order={1} size="h2">
                  {t('heading')}
                </Title>
                <Text c="dimmed" mt={6}>
                  {t('subheading')}
                </Text>
              </div>
              {sessionExpired ? (
                <Alert color="blue" variant="light" title={t('sessionExpiredTitle')} role="status">
                  {t('shared:messages.sessionExpired')}
                </Alert>
              ) : null}
              <SignInForm initialEmail={knownEmail} />
              {demoAccounts ? <DemoAccounts accounts={demoAccounts} /> : null}
              <Divider label={t('newHere')} labelPosition="center" />
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                <Button
                  variant="outline"
                  onClick={() => {
                    setMode('provider');
                  }}
                  onPointerEnter={prefetchAccessRequestPanel}
                  onFocus={prefetchAccessRequestPanel}
                  h="auto"
                  mih={42}
                  py={8}
                  styles={wrapLabel}
                >
                  {t('requestProvider')}
                </Button>
                <Button
                  variant="outline"
                  onClick={() => {
                    setMode('patient');
                  }}
                  onPointerEnter={prefetchAccessRequestPanel}
                  onFocus={prefetchAccessRequestPanel}
                  h="auto"
                  mih={42}
                  py={8}
                  styles={wrapLabel}
                >
                  {t('requestPatient')}
                </Button>
              </SimpleGrid>
            </Stack>
          ) : (
            <Suspense fallback={<Loader aria-label={t('loadingForm')} m="xl" />}>
              <AccessRequestPanel
                kind={mode}
                onBack={() => {
                  setMode('sign-in');
                }}
              />
            </Suspense>
          )}
        </Paper>
        {mode === 'sign-in' ? (
          <CrisisLines className={classes.card} mt="lg" hiddenFrom="md" />
        ) : (
          <CrisisLines className={classes.wideCard} mt="lg" />
        )}
      </main>
    </div>
  );
}
