import '../../../components/mantine-styles-public.ts';
import { Container, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

import { PublicPage } from '../../../components/public-site/public-page.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';

/**
 * The frame of the account pages: the public site's header (with its language switcher) and footer around a
 * narrow card with a heading.
 */
export function AccountFrame({ title, children }: { title: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <PublicPage>
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
    </PublicPage>
  );
}
