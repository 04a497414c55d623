// The request forms are built with Mantine, which the sign-in page itself does without: this module, loaded
// when a visitor opens a form, brings Mantine's styles and provider, and the form's texts.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '../../../components/mantine-styles-public.ts';

import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';

import { cssVariablesResolver, theme } from '../../../components/theme.ts';
import { queryClient } from '../../../lib/query-client.ts';
import accessRequestEn from '../../../locales/en/access-request.json';
import { AccessRequestPanel, type AccessRequestKind } from './access-request-panel.tsx';

/** Adds the forms' English texts to the page and waits for the current language's (Spanish comes from the server). */
export async function loadAccessRequestTexts(): Promise<void> {
  if (!i18next.hasResourceBundle('en', 'access-request')) {
    i18next.addResourceBundle('en', 'access-request', accessRequestEn);
  }
  await i18next.loadNamespaces('access-request');
}

/** A request form inside the providers it needs: Mantine with the app's theme, and a query client. */
export function AccessRequestHost({ kind, onBack }: { kind: AccessRequestKind; onBack: () => void }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <AccessRequestPanel kind={kind} onBack={onBack} />
      </MantineProvider>
    </QueryClientProvider>
  );
}
