import type { Locale } from '@telehealth/shared';
import { compose, type MailContent, type MailContext } from '../mail/mail-content.ts';

/** The portal's billing page: where the e-mail sends the patient. */
export const MY_BILLING_PATH = '/my/billing';

/**
 * To the patient: a statement is ready in the portal. No amount, no service, no health information: only that
 * something waits behind the sign-in.
 */
export function statementReadyMail(ctx: MailContext, locale: Locale): MailContent {
  const link = `${ctx.publicUrl}${MY_BILLING_PATH}`;
  if (locale === 'es') {
    return compose(ctx, locale, `Su estado de cuenta está disponible - ${ctx.practiceName}`, [
      'Tiene un estado de cuenta nuevo en su portal de paciente.',
      { link, label: 'Ver mi estado de cuenta' },
      'Por su privacidad, este correo no incluye detalles: puede verlos después de iniciar sesión.',
    ]);
  }
  return compose(ctx, locale, `Your statement is ready - ${ctx.practiceName}`, [
    'A new statement is ready in your patient portal.',
    { link, label: 'See my statement' },
    'For your privacy this e-mail carries no details: you can read them after signing in.',
  ]);
}
