import { Container, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { PublicLayout } from '../../../components/layouts/public-layout.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfig } from '../../../lib/auth.ts';

/** The public frame of the account pages: a narrow card with a heading. */
export function AccountFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const { data: config } = useAppConfig();
  usePageTitle(title);
  return (
    <PublicLayout practiceName={config?.practiceName ?? t('brandFallback')}>
      <Container size={520} py="xl" px="md" w="100%">
        <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
          <Stack gap="md">
            <Title order={1} size="h2">
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
      </Container>
    </PublicLayout>
  );
}
