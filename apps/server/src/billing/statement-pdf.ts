import pdfmake from 'pdfmake';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { formatCents, type BillingIdentity, type LedgerEntryKind } from '@telehealth/shared';
// The fonts and the no-file, no-URL access policy are set where the signed copies are built (decision 066).
import '../practice-documents/signed-copy.ts';

/**
 * A patient's statement (decision 073): the balance as of today, the entries of the last days (STATEMENT_DAYS)
 * after the balance forward, the total due and how to pay. In the reader's language; service codes, never a
 * diagnosis.
 */
export interface StatementData {
  language: 'en' | 'es';
  identity: BillingIdentity;
  clinicPhone: string | null;
  asOf: string;
  since: string;
  patient: { name: string; address: string | null };
  balanceForwardCents: number;
  entries: {
    date: string;
    kind: LedgerEntryKind;
    reversesKind: LedgerEntryKind | null;
    code: string | null;
    amountCents: number;
  }[];
  totalDueCents: number;
}

const LABELS = {
  en: {
    title: 'Statement',
    asOf: 'As of',
    patient: 'Patient',
    balanceForward: 'Balance forward before',
    date: 'Date',
    description: 'Description',
    amount: 'Amount',
    charge: 'Service',
    payment: 'Payment, thank you',
    adjustment: 'Adjustment',
    reversal: 'Correction',
    totalDue: 'Total due',
    credit: 'Credit on your account',
    howToPay: 'How to pay',
    pay: (phone: string | null) =>
      phone
        ? `Call us at ${phone} to pay by card, or bring a check or cash to your next visit.`
        : 'Ask us at your next visit how to pay by card, check or cash.',
    none: 'No entries in this period.',
  },
  es: {
    title: 'Estado de cuenta',
    asOf: 'Al',
    patient: 'Paciente',
    balanceForward: 'Saldo anterior al',
    date: 'Fecha',
    description: 'Descripción',
    amount: 'Importe',
    charge: 'Servicio',
    payment: 'Pago, gracias',
    adjustment: 'Ajuste',
    reversal: 'Corrección',
    totalDue: 'Total a pagar',
    credit: 'Saldo a su favor',
    howToPay: 'Cómo pagar',
    pay: (phone: string | null) =>
      phone
        ? `Llámenos al ${phone} para pagar con tarjeta, o traiga un cheque o efectivo a su próxima visita.`
        : 'Pregúntenos en su próxima visita cómo pagar con tarjeta, cheque o efectivo.',
    none: 'No hay movimientos en este periodo.',
  },
} as const;

export async function renderStatement(data: StatementData): Promise<Buffer> {
  const labels = LABELS[data.language];
  const locale = data.language === 'es' ? 'es-US' : 'en-US';
  const money = (cents: number) => formatCents(cents, locale);
  const describe = (entry: StatementData['entries'][number]) => {
    const base = labels[entry.kind];
    return entry.code ? `${base} ${entry.code}` : base;
  };
  const rows: Content[][] = [
    [
      { text: labels.date, bold: true },
      { text: labels.description, bold: true },
      { text: labels.amount, bold: true, alignment: 'right' },
    ],
    [
      `${data.since}`,
      `${labels.balanceForward} ${data.since}`,
      { text: money(data.balanceForwardCents), alignment: 'right' },
    ],
    ...data.entries.map((entry): Content[] => [
      entry.date,
      describe(entry),
      { text: money(entry.amountCents), alignment: 'right' },
    ]),
  ];
  const { identity } = data;
  const definition: TDocumentDefinitions = {
    info: { title: labels.title, creator: identity.legalName, producer: identity.legalName },
    pageSize: 'LETTER',
    pageMargins: [48, 48, 48, 48],
    defaultStyle: { font: 'Roboto', fontSize: 10, lineHeight: 1.2 },
    content: [
      {
        columns: [
          {
            stack: [
              { text: identity.legalName, bold: true, fontSize: 12 },
              identity.street,
              `${identity.city}, ${identity.state} ${identity.zip}`,
              ...(data.clinicPhone ? [data.clinicPhone] : []),
            ],
          },
          {
            stack: [
              { text: labels.title, fontSize: 20, bold: true, alignment: 'right' },
              { text: `${labels.asOf} ${data.asOf}`, alignment: 'right' },
            ],
          },
        ],
        margin: [0, 0, 0, 14],
      },
      { text: [{ text: `${labels.patient}: `, bold: true }, data.patient.name], margin: [0, 0, 0, 2] },
      ...(data.patient.address ? [{ text: data.patient.address, margin: [0, 0, 0, 12] } as Content] : []),
      {
        table: { headerRows: 1, widths: [80, '*', 90], body: rows },
        layout: 'lightHorizontalLines',
        margin: [0, 8, 0, 6],
      },
      ...(data.entries.length === 0 ? [{ text: labels.none, italics: true, margin: [0, 0, 0, 6] } as Content] : []),
      {
        columns: [
          { text: data.totalDueCents < 0 ? labels.credit : labels.totalDue, bold: true, fontSize: 13 },
          { text: money(Math.abs(data.totalDueCents)), bold: true, fontSize: 13, alignment: 'right' },
        ],
        margin: [0, 6, 0, 16],
      },
      { text: labels.howToPay, bold: true, fontSize: 12, margin: [0, 0, 0, 4] },
      { text: labels.pay(data.clinicPhone) },
    ],
  };
  return pdfmake.createPdf(definition).getBuffer();
}
