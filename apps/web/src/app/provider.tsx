import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';

import { useAppConfig } from '../lib/auth.ts';
import { i18n } from '../lib/i18n.ts';
import { AppConfigContext } from '../lib/page-bootstrap.ts';
import { queryClient } from '../lib/query-client.ts';
import { cssVariablesResolver, theme } from '../components/theme.ts';

/** Everything a screen relies on: theme, server-state cache and translations. */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
          <AppConfigFromQuery>{children}</AppConfigFromQuery>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

/** The components the public site shares (banner, header, page titles) read the configuration from context. */
function AppConfigFromQuery({ children }: { children: ReactNode }) {
  const { data } = useAppConfig();
  return <AppConfigContext value={data}>{children}</AppConfigContext>;
}
