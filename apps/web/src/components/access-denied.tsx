import { Button, Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';

import { usePageTitle } from '../hooks/use-page-title.ts';

export interface AccessDeniedProps {
  message?: string;
  /** A link to go on to instead of the default "Go Back" (e.g. Return to Dashboard). */
  action?: { to: string; label: string };
}

/** Shown instead of a screen the signed-in person's role may not use. */
export function AccessDenied({ message, action }: AccessDeniedProps) {
  const { t } = useTranslation(['common', 'shared']);
  const navigate = useNavigate();
  const location = useLocation();
  const title = t('shared:messages.accessDenied');
  usePageTitle(title);

  const goBack = () => {
    // The first page of the tab (key 'default') has no in-app page behind it: "back" goes to the dashboard.
    if (location.key !== 'default') void navigate(-1);
    else void navigate('/dashboard', { replace: true });
  };

  return (
    <Center py="xl">
      <Paper withBorder p="xl" maw={480} w="100%" shadow="xs">
        <Stack align="center" gap="md" ta="center">
          <ThemeIcon size={56} radius="xl" color="red" variant="light" aria-hidden>
            <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
              <rect x="5" y="11" width="14" height="10" rx="2" />
              <path d="M8 11V7a4 4 0 0 1 8 0v4" />
            </svg>
          </ThemeIcon>
          <Title order={1} size="h2">
            {title}
          </Title>
          <Text c="dimmed">{message ?? t('shared:messages.defaultDenied')}</Text>
          {action ? (
            <Button component={Link} to={action.to}>
              {action.label}
            </Button>
          ) : (
            <Button onClick={goBack}>{t('accessDenied.goBack')}</Button>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
