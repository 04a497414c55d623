import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useRouteError } from 'react-router';

import { CrisisLines } from '../../components/crisis-lines/index.ts';

export function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

/** Anything a screen throws lands here instead of a blank page. */
export function RouteErrorBoundary() {
  const { t } = useTranslation('errors');
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <Center mih="100dvh" p="md">
      <Stack maw={480} w="100%" gap="md">
        <Paper withBorder p="xl" role="alert">
          <Stack gap="md">
            <Title order={1} size="h3">
              {t('routeErrorTitle')}
            </Title>
            <Text>{t('routeErrorBody')}</Text>
            <Button
              onClick={() => {
                window.location.reload();
              }}
            >
              {t('reload')}
            </Button>
          </Stack>
        </Paper>
        <CrisisLines />
      </Stack>
    </Center>
  );
}
