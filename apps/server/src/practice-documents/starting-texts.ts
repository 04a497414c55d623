import type { PracticeDocumentKind } from '@telehealth/shared';

/**
 * The starting texts the product ships (decision 066): examples for the practice to replace with its own, written
 * so a new practice is never without a consent to ask for. Each says so at its top, in both languages. They are
 * added at start-up when the practice has no document yet, never over a practice's own texts.
 */
export interface StartingText {
  kind: Exclude<PracticeDocumentKind, 'custom'>;
  requiresSignature: boolean;
  titleEn: string;
  bodyEn: string;
  titleEs: string;
  bodyEs: string;
}

const EXAMPLE_EN =
  '> **Example text.** The practice must replace this text with its own, reviewed for its state and its services, before patients sign it.';
const EXAMPLE_ES =
  '> **Texto de ejemplo.** La consulta debe sustituir este texto por el suyo, revisado para su estado y sus servicios, antes de que los pacientes lo firmen.';

export const STARTING_TEXTS: readonly StartingText[] = [
  {
    kind: 'telehealth-consent',
    requiresSignature: true,
    titleEn: 'Telehealth informed consent',
    bodyEn: `${EXAMPLE_EN}

## What telehealth is

Telehealth means that your visits with your provider take place by secure video over the internet instead of in person. Your provider can assess you, discuss your treatment and prescribe when appropriate.

## Benefits and risks

- **Benefits:** you do not need to travel, and you can be seen from a private place of your choosing.
- **Risks:** the connection may fail or be of poor quality; in rare cases, despite our safeguards, information could be intercepted. Some conditions are better assessed in person, and your provider may ask you to be seen in person.

## Your responsibilities

1. Join each visit from a private place where you cannot be overheard.
2. Tell your provider where you are at the start of each visit, so help can be sent in an emergency.
3. Do not record a visit without your provider's agreement.

## Emergencies

Telehealth is **not** for emergencies. If you are in crisis, call or text **988** (Suicide & Crisis Lifeline) or call **911**.

## Your choice

You may withdraw this consent at any time by telling the practice. Withdrawing does not affect the care you have already received.

By signing, you confirm that you have read and understood this consent and agree to receive care by telehealth.`,
    titleEs: 'Consentimiento informado para telesalud',
    bodyEs: `${EXAMPLE_ES}

## Qué es la telesalud

La telesalud significa que sus consultas con su proveedor se realizan por video seguro a través de internet en lugar de en persona. Su proveedor puede evaluarle, hablar de su tratamiento y recetar cuando corresponda.

## Beneficios y riesgos

- **Beneficios:** no necesita desplazarse y puede ser atendido desde un lugar privado que usted elija.
- **Riesgos:** la conexión puede fallar o ser de mala calidad; en casos poco frecuentes, a pesar de nuestras medidas, la información podría ser interceptada. Algunas condiciones se evalúan mejor en persona, y su proveedor puede pedirle una consulta presencial.

## Sus responsabilidades

1. Conéctese a cada consulta desde un lugar privado donde nadie le escuche.
2. Diga a su proveedor dónde se encuentra al comienzo de cada consulta, para poder enviar ayuda en una emergencia.
3. No grabe una consulta sin el acuerdo de su proveedor.

## Emergencias

La telesalud **no** es para emergencias. Si está en crisis, llame o envíe un mensaje de texto al **988** (Línea de Prevención del Suicidio y Crisis) o llame al **911**.

## Su decisión

Puede retirar este consentimiento en cualquier momento avisando a la consulta. Retirarlo no afecta la atención que ya recibió.

Al firmar, confirma que ha leído y comprendido este consentimiento y que acepta recibir atención por telesalud.`,
  },
  {
    kind: 'privacy-notice',
    requiresSignature: true,
    titleEn: 'Notice of Privacy Practices: acknowledgement',
    bodyEn: `${EXAMPLE_EN}

The practice's **Notice of Privacy Practices** describes how your health information may be used and disclosed, and how you can get access to it. You may ask the practice for a copy at any time.

## In short

- We use your health information to treat you, to be paid for your care and to run the practice.
- We do not share it for other purposes without your written permission, except where the law requires or allows it.
- You have the right to see and get a copy of your record, to ask for corrections, and to know who has accessed it.
- Psychotherapy notes have extra protection.

By signing, you acknowledge that you have received the practice's Notice of Privacy Practices.`,
    titleEs: 'Aviso de Prácticas de Privacidad: acuse de recibo',
    bodyEs: `${EXAMPLE_ES}

El **Aviso de Prácticas de Privacidad** de la consulta describe cómo puede usarse y divulgarse su información de salud, y cómo puede usted acceder a ella. Puede pedir una copia a la consulta en cualquier momento.

## En resumen

- Usamos su información de salud para atenderle, para cobrar por su atención y para administrar la consulta.
- No la compartimos para otros fines sin su permiso por escrito, salvo cuando la ley lo exige o lo permite.
- Tiene derecho a ver y obtener una copia de su expediente, a pedir correcciones y a saber quién lo ha consultado.
- Las notas de psicoterapia tienen una protección adicional.

Al firmar, confirma que ha recibido el Aviso de Prácticas de Privacidad de la consulta.`,
  },
  {
    kind: 'financial-policy',
    requiresSignature: true,
    titleEn: 'Financial policy',
    bodyEn: `${EXAMPLE_EN}

## Payment

Payment, or your copay, is due at the time of each visit. We accept the payment methods listed on the practice's website.

## Insurance

We will bill your insurance if we are in its network. You are responsible for any amount your insurance does not pay, including deductibles and coinsurance. Please tell us of any change in your insurance before your next visit.

## Balances

Statements are sent monthly. Please contact the practice if you need a payment plan.

By signing, you agree to this financial policy.`,
    titleEs: 'Política financiera',
    bodyEs: `${EXAMPLE_ES}

## Pago

El pago, o su copago, se realiza en el momento de cada consulta. Aceptamos los medios de pago indicados en el sitio web de la consulta.

## Seguro

Facturaremos a su seguro si pertenecemos a su red. Usted es responsable de cualquier importe que su seguro no pague, incluidos deducibles y coseguros. Avísenos de cualquier cambio en su seguro antes de su próxima consulta.

## Saldos

Enviamos estados de cuenta cada mes. Comuníquese con la consulta si necesita un plan de pagos.

Al firmar, acepta esta política financiera.`,
  },
  {
    kind: 'cancellation-policy',
    requiresSignature: true,
    titleEn: 'Cancellation policy',
    bodyEn: `${EXAMPLE_EN}

Your provider's time is reserved for you. If you cannot attend a visit, please cancel or reschedule it **at least 24 hours before** its start, in the portal or by calling the practice.

- A visit cancelled with less notice, or missed, may be charged a fee set by the practice.
- After repeated missed visits, the practice may ask to discuss whether its services still suit you.

By signing, you agree to this cancellation policy.`,
    titleEs: 'Política de cancelación',
    bodyEs: `${EXAMPLE_ES}

El tiempo de su proveedor está reservado para usted. Si no puede asistir a una consulta, cancélela o cámbiela **al menos 24 horas antes** de su inicio, en el portal o llamando a la consulta.

- Una consulta cancelada con menos antelación, o a la que no asista, puede tener un cargo fijado por la consulta.
- Tras varias ausencias, la consulta puede pedirle hablar de si sus servicios siguen siendo adecuados para usted.

Al firmar, acepta esta política de cancelación.`,
  },
];
