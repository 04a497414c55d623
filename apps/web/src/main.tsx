import './lib/zod-config.ts';

// Only what the first chunk renders (spinner, guards' error states); each Mantine screen's route module imports
// the full stylesheet (app/mantine-styles.ts), so the public landing page does not wait for it.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/index.tsx';
import {
  appConfigQueryOptions,
  applyPageBootstrap,
  currentUserQueryOptions,
  startCrossTabSession,
} from './lib/auth.ts';
import { readPageBootstrap } from './lib/page-bootstrap.ts';
import { queryClient } from './lib/query-client.ts';

// The server wrote the configuration (and, signed out, that nobody is) into the page; ask for what it did not
// while the first screen's code loads. Failures are shown by the screens that use these queries.
applyPageBootstrap(readPageBootstrap());
queryClient.query(currentUserQueryOptions).catch(() => undefined);
queryClient.query(appConfigQueryOptions).catch(() => undefined);
startCrossTabSession();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
