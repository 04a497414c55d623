export { InviteScreen } from './components/invite-screen.tsx';
export { ForgotPasswordScreen, ResetPasswordScreen } from './components/reset-password-screens.tsx';
