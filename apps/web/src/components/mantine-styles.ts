// The whole Mantine stylesheet, imported by the route modules that render Mantine screens (login, the signed-in
// shell, the account pages). The landing page does not need it: keeping it out of the first, render-blocking
// stylesheet is most of the landing page's Lighthouse performance (main.tsx keeps only what the first chunk
// itself renders: the base styles, the spinner and the guards' error states).
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
