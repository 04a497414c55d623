// The whole Mantine stylesheet, imported by the signed-in shell (app/routes/app-layout.tsx). The signed-out
// screens load only their components' styles (mantine-styles-public.ts), the public site none.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
