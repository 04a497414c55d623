import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/index.tsx';
import { appConfigQueryOptions, currentUserQueryOptions, startCrossTabSession } from './lib/auth.ts';
import { queryClient } from './lib/query-client.ts';

// Ask who is signed in and for the practice's configuration while the first screen's code loads.
// Failures are shown by the screens that use these queries.
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
