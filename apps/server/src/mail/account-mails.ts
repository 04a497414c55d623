import {
  CRISIS_LINE,
  EMERGENCY_LINE,
  INVITATION_VALID_HOURS,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RESET_VALID_MINUTES,
  type AccessRequestKind,
  type Locale,
} from '@telehealth/shared';
import { compose, type MailContent, type MailContext } from './mail-content.ts';

// The mails of getting an account: an access request waiting and received, the invitation, a password reset.

/** To administrators: a request is waiting. Only its kind; no name, no e-mail address, no form data. */
export function accessRequestWaitingMail(ctx: MailContext, locale: Locale, kind: AccessRequestKind): MailContent {
  const link = `${ctx.publicUrl}/admin/access-requests`;
  if (locale === 'es') {
    const who = kind === 'provider' ? 'un profesional de la salud' : 'un paciente';
    return compose(ctx, locale, `Nueva solicitud de acceso de ${who}`, [
      `Hay una nueva solicitud de acceso de ${who} pendiente de revisión.`,
      { link, label: 'Revisar solicitudes' },
      'Este correo no contiene datos de la solicitud: solo pueden verse después de iniciar sesión.',
    ]);
  }
  const who = kind === 'provider' ? 'provider' : 'patient';
  return compose(ctx, locale, `New ${who} access request waiting for review`, [
    `A new ${who} access request is waiting for review.`,
    { link, label: 'Review access requests' },
    'This e-mail carries no details of the request: they can be read only after signing in.',
  ]);
}

/** To the requester: we have it, and we review within 1-2 business days. Nothing of what they wrote. */
export function accessRequestReceivedMail(ctx: MailContext, locale: Locale, kind: AccessRequestKind): MailContent {
  if (locale === 'es') {
    const as = kind === 'provider' ? 'como profesional de la salud' : 'como paciente';
    return compose(ctx, locale, `Hemos recibido su solicitud - ${ctx.practiceName}`, [
      `Gracias por su interés en ${ctx.practiceName}.`,
      `Hemos recibido su solicitud de acceso ${as}. Revisamos cada solicitud en un plazo de 1 a 2 días hábiles y nos pondremos en contacto con usted por el medio que nos indicó.`,
      ...(kind === 'patient'
        ? [
            `Si está en crisis, llame o envíe un mensaje de texto al ${CRISIS_LINE}. En una emergencia, llame al ${EMERGENCY_LINE} o acuda a la sala de emergencias más cercana.`,
          ]
        : []),
      'Si usted no hizo esta solicitud, puede ignorar este correo.',
    ]);
  }
  const as = kind === 'provider' ? 'as a healthcare provider' : 'as a patient';
  return compose(ctx, locale, `We received your request - ${ctx.practiceName}`, [
    `Thank you for your interest in ${ctx.practiceName}.`,
    `We have received your request for access ${as}. We review every request within 1-2 business days and will contact you the way you asked us to.`,
    ...(kind === 'patient'
      ? [
          `If you are in crisis, call or text ${CRISIS_LINE}. In an emergency, call ${EMERGENCY_LINE} or go to the nearest emergency room.`,
        ]
      : []),
    'If you did not make this request, you can ignore this e-mail.',
  ]);
}

/** The link that sets the first password: single use, valid 72 hours. */
export function invitationMail(
  ctx: MailContext,
  locale: Locale,
  options: { link: string; reason: 'approved' | 'added' },
): MailContent {
  const { link, reason } = options;
  if (locale === 'es') {
    return compose(ctx, locale, `Cree su contraseña de ${ctx.practiceName}`, [
      reason === 'approved'
        ? 'Su solicitud de acceso ha sido aprobada.'
        : `Se ha creado una cuenta para usted en ${ctx.practiceName}.`,
      'Para terminar, cree su contraseña con este enlace:',
      { link, label: 'Crear mi contraseña' },
      `El enlace funciona una sola vez y es válido durante ${INVITATION_VALID_HOURS} horas. La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres, con una letra minúscula, una mayúscula, un número y un símbolo. Después, inicie sesión en ${ctx.publicUrl}/login con esta dirección de correo.`,
      'Si no esperaba este correo, puede ignorarlo.',
    ]);
  }
  return compose(ctx, locale, `Set your password for ${ctx.practiceName}`, [
    reason === 'approved'
      ? 'Your request for access has been approved.'
      : `An account has been created for you at ${ctx.practiceName}.`,
    'To finish, set your password with this link:',
    { link, label: 'Set my password' },
    `The link works once and is valid for ${INVITATION_VALID_HOURS} hours. Your password must be at least ${PASSWORD_MIN_LENGTH} characters long with a lowercase letter, an uppercase letter, a number and a symbol. Then sign in at ${ctx.publicUrl}/login with this e-mail address.`,
    'If you did not expect this e-mail, you can ignore it.',
  ]);
}

/** A 6-digit code and a link, each single use and valid 15 minutes. */
export function passwordResetMail(
  ctx: MailContext,
  locale: Locale,
  options: { link: string; code: string },
): MailContent {
  const { link, code } = options;
  if (locale === 'es') {
    return compose(ctx, locale, `Restablezca su contraseña de ${ctx.practiceName}`, [
      `Alguien pidió restablecer la contraseña de la cuenta con esta dirección de correo en ${ctx.practiceName}.`,
      `Su código: ${code}`,
      { link, label: 'Restablecer mi contraseña' },
      `El código y el enlace funcionan una sola vez y son válidos durante ${PASSWORD_RESET_VALID_MINUTES} minutos. Al cambiar la contraseña se cierran todas las sesiones de la cuenta.`,
      'Si usted no lo pidió, ignore este correo: su contraseña no cambia.',
    ]);
  }
  return compose(ctx, locale, `Reset your password for ${ctx.practiceName}`, [
    `Someone asked to reset the password of the account with this e-mail address at ${ctx.practiceName}.`,
    `Your code: ${code}`,
    { link, label: 'Reset my password' },
    `The code and the link work once and are valid for ${PASSWORD_RESET_VALID_MINUTES} minutes. Changing the password signs the account out everywhere.`,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ]);
}
