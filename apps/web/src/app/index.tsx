import { RouterProvider } from 'react-router/dom';

import { AppProvider } from './provider.tsx';
import { createAppRouter } from './router.tsx';

// One router for the page's lifetime (data routers must not live in React state).
const router = createAppRouter();

export function App() {
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
