import { ForgotPasswordScreen, InviteScreen, ResetPasswordScreen } from '../../features/account-setup/index.ts';

/** The public account pages: `/invite#TOKEN`, `/forgot-password` and `/reset-password#TOKEN`. */
export const inviteRoute = { Component: InviteScreen };
export const forgotPasswordRoute = { Component: ForgotPasswordScreen };
export const resetPasswordRoute = { Component: ResetPasswordScreen };
