import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';

import { FullPageSpinner } from '../components/full-page-spinner.tsx';
import { AdminRoute, ProtectedRoute, PublicOnlyRoute, PublicRoute } from './routes/guards.tsx';
import { RootLayout, RouteErrorBoundary } from './routes/root.tsx';

// Screens load on demand (route `lazy`): the first chunk holds the providers, the guards and the spinner;
// each screen, and the signed-in shell with its Mantine-heavy header, arrive when first needed.

export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    HydrateFallback: FullPageSpinner,
    ErrorBoundary: RouteErrorBoundary,
    children: [
      {
        Component: PublicOnlyRoute,
        // /login is the public site's own page (site-main.tsx), reached by a document load (guards.tsx).
        children: [{ index: true, lazy: () => import('./routes/landing.tsx') }],
      },
      {
        Component: PublicRoute,
        children: [
          { path: 'home', lazy: () => import('./routes/about.tsx') },
          { path: 'coming-soon', lazy: () => import('./routes/coming-soon.tsx') },
          { path: 'invite', lazy: async () => (await import('./routes/account-setup.tsx')).inviteRoute },
          {
            path: 'forgot-password',
            lazy: async () => (await import('./routes/account-setup.tsx')).forgotPasswordRoute,
          },
          {
            path: 'reset-password',
            lazy: async () => (await import('./routes/account-setup.tsx')).resetPasswordRoute,
          },
          { path: 'waitlist/offer', lazy: () => import('./routes/waitlist-offer.tsx') },
          {
            path: 'video-call/guest/:appointmentId',
            lazy: async () => (await import('./routes/video-call.tsx')).guestRoute,
          },
        ],
      },
      {
        Component: ProtectedRoute,
        children: [
          {
            lazy: () => import('./routes/app-layout.tsx'),
            children: [
              { path: 'dashboard', lazy: () => import('./routes/dashboard.tsx') },
              { path: 'patients', lazy: () => import('./routes/patients.tsx') },
              { path: 'patients/new', lazy: () => import('./routes/patient-new.tsx') },
              { path: 'patients/:id/edit', lazy: () => import('./routes/patient-edit.tsx') },
              { path: 'patients/:id', lazy: () => import('./routes/patient-chart.tsx') },
              { path: 'questionnaires/:id', lazy: () => import('./routes/questionnaire.tsx') },
              { path: 'calendar', lazy: () => import('./routes/calendar.tsx') },
              { path: 'appointments/new', lazy: () => import('./routes/appointment-new.tsx') },
              { path: 'availability', lazy: () => import('./routes/availability.tsx') },
              { path: 'waitlist', lazy: () => import('./routes/waitlist.tsx') },
              // A path containing /start/ is the provider's start mode.
              {
                path: 'video-call/start/:appointmentId',
                lazy: async () => (await import('./routes/video-call.tsx')).startRoute,
              },
              {
                path: 'video-call/:appointmentId',
                lazy: async () => (await import('./routes/video-call.tsx')).joinRoute,
              },
              { path: 'video-call', element: <Navigate to="/calendar" replace /> },
              { path: 'notes', lazy: () => import('./routes/notes.tsx') },
              { path: 'doctors', lazy: () => import('./routes/doctors.tsx') },
              { path: 'messages', lazy: () => import('./routes/messages.tsx') },
              { path: 'my/appointments', lazy: () => import('./routes/my-appointments.tsx') },
              { path: 'my/records', lazy: () => import('./routes/my-records.tsx') },
              { path: 'my/intake', lazy: () => import('./routes/my-intake.tsx') },
              { path: 'my/records/medications/print', lazy: () => import('./routes/my-medication-list.tsx') },
              { path: 'my/record-access', lazy: () => import('./routes/record-access.tsx') },
              { path: 'my/documents', lazy: () => import('./routes/my-documents.tsx') },
              { path: 'my/billing', lazy: () => import('./routes/my-billing.tsx') },
              { path: 'profile', lazy: () => import('./routes/profile.tsx') },
              // The user menu's old Settings: My account holds a person's own settings (decision 031).
              { path: 'settings', element: <Navigate to="/profile" replace /> },
              { path: 'account/security', lazy: () => import('./routes/account-security.tsx') },
              {
                path: 'admin',
                Component: AdminRoute,
                children: [
                  { index: true, lazy: () => import('./routes/admin-console.tsx') },
                  { path: 'access-requests', lazy: () => import('./routes/admin-access-requests.tsx') },
                  { path: 'outbox', lazy: () => import('./routes/admin-outbox.tsx') },
                  { path: 'stored-text', lazy: () => import('./routes/admin-stored-text.tsx') },
                  { path: 'note-templates', lazy: () => import('./routes/admin-note-templates.tsx') },
                  { path: 'users', lazy: () => import('./routes/admin-users.tsx') },
                  { path: 'settings', lazy: () => import('./routes/admin-settings.tsx') },
                  { path: 'fee-schedule', lazy: () => import('./routes/admin-fee-schedule.tsx') },
                  { path: 'documents', lazy: () => import('./routes/admin-documents.tsx') },
                  { path: 'reports', lazy: () => import('./routes/admin-reports.tsx') },
                  { path: 'reports/compliance/print', lazy: () => import('./routes/admin-reports-print.tsx') },
                  { path: 'security', lazy: () => import('./routes/admin-security.tsx') },
                  { path: 'data', lazy: () => import('./routes/admin-data.tsx') },
                  { path: 'health', lazy: () => import('./routes/admin-health.tsx') },
                ],
              },
            ],
          },
        ],
      },
      // Any other path goes to the dashboard (and from there to /login without a session).
      { path: '*', element: <Navigate to="/dashboard" replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
