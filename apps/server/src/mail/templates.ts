import { CRISIS_LINE, EMERGENCY_LINE, type Locale } from '@telehealth/shared';
import { compose, type MailContent, type MailContext } from './mail-content.ts';

// The mails about visits (appointments, the waitlist, a guest's invitation) and the notices that something waits.

/** What an appointment mail says: when, with whom, how to join. Never the reason, the notes or a diagnosis. */
export interface AppointmentMailFacts {
  /** booked or changed: the invitation (REQUEST); cancelled: CANCEL; reminder: a reminder before the visit. */
  event: 'booked' | 'changed' | 'cancelled' | 'reminder';
  /** The patient reads about their provider; the provider about the patient, by initials only. */
  recipient: 'patient' | 'provider';
  /** The date and time, formatted in the recipient's language and the practice's zone (with the zone's name). */
  when: string;
  providerName: string;
  patientInitials: string;
  video: boolean;
  /** The product's own page of the visit (the video room's link for a video visit). */
  link: string;
}

/** The summary of an appointment's calendar event: as free of health information as the mail. */
export function appointmentEventSummary(ctx: MailContext, locale: Locale, facts: AppointmentMailFacts): string {
  const kind = locale === 'es' ? (facts.video ? 'Videoconsulta' : 'Cita') : facts.video ? 'Video visit' : 'Appointment';
  if (facts.recipient === 'provider') return `${kind}: ${facts.patientInitials}`;
  return `${kind} - ${ctx.practiceName}`;
}

/** An appointment's invitation, change, cancellation or reminder, for the patient or the provider. */
export function appointmentMail(ctx: MailContext, locale: Locale, facts: AppointmentMailFacts): MailContent {
  const { when, providerName, patientInitials, video, link } = facts;
  const toPatient = facts.recipient === 'patient';
  if (locale === 'es') {
    const withWhom = toPatient ? `con ${providerName}` : `con el paciente ${patientInitials}`;
    const kind = video ? 'videoconsulta' : 'cita presencial';
    const join = video
      ? [
          { link, label: 'Entrar a la videoconsulta' },
          'El enlace se abre 15 minutos antes de la hora; inicie sesión para entrar.',
        ]
      : [`Lugar: ${ctx.practiceName}.`];
    const subjects = {
      booked: `Su ${kind} del ${when}`,
      changed: `Cambio de su ${kind}: ahora el ${when}`,
      cancelled: `Cancelada: su ${kind} del ${when}`,
      reminder: `Recordatorio: su ${kind} del ${when}`,
    };
    const openings = {
      booked: `Tiene una ${kind} ${withWhom} el ${when}.`,
      changed: `Su ${kind} ${withWhom} ha cambiado. La nueva fecha es el ${when}.`,
      cancelled: `Su ${kind} ${withWhom} del ${when} ha sido cancelada.`,
      reminder: `Le recordamos su ${kind} ${withWhom} el ${when}.`,
    };
    return compose(ctx, locale, subjects[facts.event], [
      openings[facts.event],
      ...(facts.event === 'cancelled' ? [] : join),
      ...(facts.event === 'booked' || facts.event === 'changed'
        ? ['El archivo adjunto añade la cita a su calendario y la actualiza si cambia.']
        : []),
      ...(toPatient
        ? [
            `${ctx.clinicPhone ? `Si necesita cambiarla, llame a la consulta al ${ctx.clinicPhone}.` : 'Si necesita cambiarla, inicie sesión y envíe un mensaje a su equipo de atención.'} Si está en crisis, llame o envíe un mensaje de texto al ${CRISIS_LINE}; en una emergencia, llame al ${EMERGENCY_LINE}.`,
          ]
        : []),
    ]);
  }
  const withWhom = toPatient ? `with ${providerName}` : `with patient ${patientInitials}`;
  const kind = video ? 'video visit' : 'in-person appointment';
  const join = video
    ? [{ link, label: 'Join the video visit' }, 'The link opens 15 minutes before the start; sign in to join.']
    : [`Place: ${ctx.practiceName}.`];
  const subjects = {
    booked: `Your ${kind} on ${when}`,
    changed: `Your ${kind} has moved to ${when}`,
    cancelled: `Cancelled: your ${kind} on ${when}`,
    reminder: `Reminder: your ${kind} on ${when}`,
  };
  const openings = {
    booked: `You have a ${kind} ${withWhom} on ${when}.`,
    changed: `Your ${kind} ${withWhom} has changed. It is now on ${when}.`,
    cancelled: `Your ${kind} ${withWhom} on ${when} has been cancelled.`,
    reminder: `This is a reminder of your ${kind} ${withWhom} on ${when}.`,
  };
  return compose(ctx, locale, subjects[facts.event], [
    openings[facts.event],
    ...(facts.event === 'cancelled' ? [] : join),
    ...(facts.event === 'booked' || facts.event === 'changed'
      ? ['The attached invitation adds the visit to your calendar and updates it if it changes.']
      : []),
    ...(toPatient
      ? [
          `${ctx.clinicPhone ? `If you need to change it, call the practice at ${ctx.clinicPhone}.` : 'If you need to change it, sign in and send your care team a message.'} If you are in crisis, call or text ${CRISIS_LINE}; in an emergency, call ${EMERGENCY_LINE}.`,
        ]
      : []),
  ]);
}

/** To a waitlisted patient: a time has opened; the first to claim it by the link gets it. */
export function waitlistOfferMail(
  ctx: MailContext,
  locale: Locale,
  facts: { when: string; providerName: string; link: string; validUntil: string },
): MailContent {
  if (locale === 'es') {
    return compose(ctx, locale, `Hay una hora libre con ${facts.providerName}`, [
      `Está en la lista de espera de ${facts.providerName}. Se ha liberado una hora: el ${facts.when}.`,
      { link: facts.link, label: 'Reservar esta hora' },
      `La hora es para quien la reserve primero. El enlace es válido hasta el ${facts.validUntil}. Si no le conviene, no haga nada: sigue en la lista de espera.`,
    ]);
  }
  return compose(ctx, locale, `A time has opened up with ${facts.providerName}`, [
    `You are on ${facts.providerName}'s waitlist. A time has opened up: ${facts.when}.`,
    { link: facts.link, label: 'Book this time' },
    `The time goes to whoever books it first. The link is valid until ${facts.validUntil}. If it does not suit you, do nothing: you stay on the waitlist.`,
  ]);
}

/** To the other waitlisted patients once an offered time was taken. */
export function waitlistGoneMail(ctx: MailContext, locale: Locale, facts: { when: string }): MailContent {
  if (locale === 'es') {
    return compose(ctx, locale, 'La hora ofrecida ya está reservada', [
      `La hora del ${facts.when} que le ofrecimos ya ha sido reservada. Sigue en la lista de espera y le avisaremos de la próxima.`,
    ]);
  }
  return compose(ctx, locale, 'The time we offered has been taken', [
    `The time on ${facts.when} that we offered you has been taken. You stay on the waitlist, and we will tell you of the next one.`,
  ]);
}

/** To a guest the provider invited to a video visit: when, with whom, and the link (nothing about the patient). */
export function videoGuestMail(
  ctx: MailContext,
  locale: Locale,
  facts: { guestName: string; providerName: string; when: string; link: string },
): MailContent {
  if (locale === 'es') {
    return compose(ctx, locale, `${facts.providerName} le invita a una videoconsulta`, [
      `Hola, ${facts.guestName}: ${facts.providerName} le invita a una videoconsulta el ${facts.when}.`,
      { link: facts.link, label: 'Entrar en la videoconsulta' },
      'Podrá entrar desde unos minutos antes. El enlace es solo para usted y solo para esta consulta; le dejarán entrar desde la sala de espera.',
    ]);
  }
  return compose(ctx, locale, `${facts.providerName} invites you to a video visit`, [
    `Hello ${facts.guestName}, ${facts.providerName} invites you to a video visit on ${facts.when}.`,
    { link: facts.link, label: 'Join the video visit' },
    'You can join from a few minutes before. The link is for you and this visit only; you will be let in from the waiting room.',
  ]);
}

/**
 * To a patient's provider: a questionnaire answer needs attention now (the safety path, decision 028). It names
 * no patient, no questionnaire and no answer: only that an alert waits in the product.
 */
export function safetyAlertMail(ctx: MailContext, locale: Locale): MailContent {
  const link = `${ctx.publicUrl}/dashboard`;
  if (locale === 'es') {
    return compose(ctx, locale, 'Una alerta de seguridad espera su revisión', [
      'Una respuesta de un paciente requiere su atención hoy. Inicie sesión para verla y atenderla.',
      { link, label: 'Ver la alerta' },
    ]);
  }
  return compose(ctx, locale, 'A safety alert is waiting for your review', [
    "A patient's answer needs your attention today. Sign in to see it and acknowledge it.",
    { link, label: 'See the alert' },
  ]);
}

/** To administrators: a safety alert was not acknowledged in time. No clinical content, no patient. */
export function safetyAlertEscalationMail(ctx: MailContext, locale: Locale, minutes: number): MailContent {
  const link = `${ctx.publicUrl}/dashboard`;
  if (locale === 'es') {
    return compose(ctx, locale, 'Una alerta de seguridad sigue sin atender', [
      `Nadie ha atendido una alerta de seguridad en ${minutes} minutos. Asegúrese de que un profesional la revise hoy.`,
      { link, label: 'Abrir el panel' },
    ]);
  }
  return compose(ctx, locale, 'A safety alert is still not acknowledged', [
    `Nobody has acknowledged a safety alert for ${minutes} minutes. Please make sure a clinician reviews it today.`,
    { link, label: 'Open the dashboard' },
  ]);
}

/**
 * To a patient's primary provider and the administrators: a patient asked for a correction of their record
 * (decision 031). It names no patient and says nothing of the request: only that one waits, and the 60 days.
 */
export function recordCorrectionWaitingMail(ctx: MailContext, locale: Locale, days: number): MailContent {
  const link = `${ctx.publicUrl}/dashboard`;
  if (locale === 'es') {
    return compose(ctx, locale, 'Una solicitud de corrección de historial espera respuesta', [
      `Un paciente ha pedido corregir su historial. La práctica debe responder en un plazo de ${days} días. Inicie sesión para verla en la ficha del paciente.`,
      { link, label: 'Iniciar sesión' },
    ]);
  }
  return compose(ctx, locale, 'A record correction request is waiting', [
    `A patient asked for a correction of their record. The practice must answer within ${days} days. Sign in to see it in the patient's chart.`,
    { link, label: 'Sign in' },
  ]);
}

/**
 * A secure message waits (decision 029). Only that: no sender, no subject, no text, no patient; the link leads to
 * /messages, behind the sign-in.
 */
export function messageWaitingMail(ctx: MailContext, locale: Locale): MailContent {
  const link = `${ctx.publicUrl}/messages`;
  if (locale === 'es') {
    return compose(ctx, locale, 'Tiene un mensaje seguro nuevo', [
      'Tiene un mensaje nuevo en su portal. Por su privacidad, no lo incluimos en este correo: inicie sesión para leerlo.',
      { link, label: 'Leer el mensaje' },
    ]);
  }
  return compose(ctx, locale, 'You have a new secure message', [
    'You have a new message in your portal. For your privacy it is not included in this e-mail: sign in to read it.',
    { link, label: 'Read the message' },
  ]);
}

/**
 * To administrators: a provider used emergency access (decision 036). No provider, no patient, no reason: only
 * that one waits for review, and where.
 */
export function emergencyAccessUsedMail(ctx: MailContext, locale: Locale): MailContent {
  const link = `${ctx.publicUrl}/admin/security?tab=emergency`;
  if (locale === 'es') {
    return compose(ctx, locale, 'Se usó un acceso de emergencia', [
      'Un profesional usó el acceso de emergencia a un historial. Revíselo en la pantalla de seguridad.',
      { link, label: 'Revisar el acceso' },
    ]);
  }
  return compose(ctx, locale, 'Emergency access was used', [
    'A provider used emergency access to a record. Please review it on the security screen.',
    { link, label: 'Review it' },
  ]);
}

/**
 * To a patient's provider: a treatment plan's review date has come. No patient, no plan, no clinical content: only
 * that a review is due, and where to sign in.
 */
export function treatmentPlanReviewDueMail(ctx: MailContext, locale: Locale): MailContent {
  const link = `${ctx.publicUrl}/dashboard`;
  if (locale === 'es') {
    return compose(ctx, locale, 'Una revisión de plan de tratamiento está pendiente', [
      'Una revisión de plan de tratamiento está pendiente. Inicie sesión para verla.',
      { link, label: 'Iniciar sesión' },
    ]);
  }
  return compose(ctx, locale, 'A treatment plan review is due', [
    'A treatment plan review is due. Sign in to see it.',
    { link, label: 'Sign in' },
  ]);
}

/**
 * To a new patient, before their first visit (decision 068): that something waits in the portal. No document, no
 * appointment, no provider, nothing about their health: a mailbox is not a safe place for any of it.
 */
export function firstVisitReminderMail(ctx: MailContext, locale: Locale): MailContent {
  const link = `${ctx.publicUrl}/dashboard`;
  if (locale === 'es') {
    return compose(ctx, locale, 'Antes de su primera visita', [
      'Tiene algunas cosas que completar en su portal de paciente antes de su primera visita.',
      { link, label: 'Abrir el portal' },
    ]);
  }
  return compose(ctx, locale, 'Before your first visit', [
    'You have a few things to complete in your patient portal before your first visit.',
    { link, label: 'Open the portal' },
  ]);
}
