import { createRequire } from 'node:module';
import path from 'node:path';
import pdfmake from 'pdfmake';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { markdownToPdfContent } from './markdown-pdf.ts';

const require = createRequire(import.meta.url);
// The fonts pdfmake ships (Roboto, Latin with accents): the only files it may read.
const FONT_DIR = path.join(path.dirname(require.resolve('pdfmake/package.json')), 'fonts', 'Roboto');
pdfmake.setFonts({
  Roboto: {
    normal: path.join(FONT_DIR, 'Roboto-Regular.ttf'),
    bold: path.join(FONT_DIR, 'Roboto-Medium.ttf'),
    italics: path.join(FONT_DIR, 'Roboto-Italic.ttf'),
    bolditalics: path.join(FONT_DIR, 'Roboto-MediumItalic.ttf'),
  },
});
// A document's text never makes the server fetch or read anything: no URL, and no file but the fonts.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((file) => path.resolve(file).startsWith(FONT_DIR + path.sep));

/** What a signed copy shows. */
export interface SignedCopy {
  language: 'en' | 'es';
  practiceName: string;
  title: string;
  body: string;
  version: number;
  textHash: string;
  method: 'electronic' | 'paper';
  /** Electronic: the name the patient typed. */
  typedName: string | null;
  signedAt: Date;
  /** Paper: the date the patient signed the copy (YYYY-MM-DD), and who recorded it. */
  paperSignedOn: string | null;
  recordedByName: string | null;
  accountEmail: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  patientName: string;
  timeZone: string;
}

const LABELS = {
  en: {
    heading: 'Signature',
    typedName: 'Signed by (name typed)',
    signedAt: 'Signed',
    version: 'Version',
    hash: 'Text SHA-256',
    account: 'Account',
    address: 'Client address',
    agent: 'User agent',
    patient: 'Patient',
    paper: 'Paper copy signed on',
    recordedBy: 'Recorded by',
    recordedAt: 'Recorded',
    statement: 'Signed electronically: the person typed their full name and ticked “I agree”.',
    paperStatement: 'The patient signed a paper copy of this version; the practice recorded it.',
    unknown: 'not known',
  },
  es: {
    heading: 'Firma',
    typedName: 'Firmado por (nombre escrito)',
    signedAt: 'Firmado',
    version: 'Versión',
    hash: 'SHA-256 del texto',
    account: 'Cuenta',
    address: 'Dirección del cliente',
    agent: 'Agente de usuario',
    patient: 'Paciente',
    paper: 'Copia en papel firmada el',
    recordedBy: 'Registrada por',
    recordedAt: 'Registrada',
    statement: 'Firmado electrónicamente: la persona escribió su nombre completo y marcó «Acepto».',
    paperStatement: 'El paciente firmó una copia en papel de esta versión; la consulta la registró.',
    unknown: 'desconocido',
  },
} as const;

/** An instant in the practice's time zone, with the zone named: "November 28, 2026, 10:15 AM (America/New_York)". */
export function formatInZone(instant: Date, timeZone: string, language: 'en' | 'es'): string {
  const text = new Intl.DateTimeFormat(language === 'es' ? 'es-US' : 'en-US', {
    timeZone,
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(instant);
  return `${text} (${timeZone})`;
}

/** The signed copy as PDF bytes: the title and text, then the signature block. */
export async function renderSignedCopy(copy: SignedCopy): Promise<Buffer> {
  const labels = LABELS[copy.language];
  const row = (label: string, value: string | null): Content[] => [
    { text: label, bold: true },
    { text: value ?? labels.unknown },
  ];
  const rows: Content[][] =
    copy.method === 'electronic'
      ? [
          row(labels.typedName, copy.typedName),
          row(labels.signedAt, formatInZone(copy.signedAt, copy.timeZone, copy.language)),
          row(labels.patient, copy.patientName),
          row(labels.account, copy.accountEmail),
          row(labels.address, copy.clientAddress),
          row(labels.agent, copy.userAgent),
          row(labels.version, String(copy.version)),
          row(labels.hash, copy.textHash),
        ]
      : [
          row(labels.paper, copy.paperSignedOn),
          row(labels.patient, copy.patientName),
          row(labels.recordedBy, copy.recordedByName),
          row(labels.recordedAt, formatInZone(copy.signedAt, copy.timeZone, copy.language)),
          row(labels.version, String(copy.version)),
          row(labels.hash, copy.textHash),
        ];
  const definition: TDocumentDefinitions = {
    info: { title: copy.title, creator: copy.practiceName, producer: copy.practiceName },
    pageSize: 'LETTER',
    pageMargins: [48, 56, 48, 56],
    defaultStyle: { font: 'Roboto', fontSize: 10.5, lineHeight: 1.2 },
    content: [
      { text: copy.practiceName, fontSize: 9, color: '#555555', margin: [0, 0, 0, 8] },
      { text: copy.title, fontSize: 20, bold: true, margin: [0, 0, 0, 12] },
      ...markdownToPdfContent(copy.body),
      { text: labels.heading, fontSize: 14, bold: true, margin: [0, 18, 0, 6], unbreakable: true },
      {
        text: copy.method === 'electronic' ? labels.statement : labels.paperStatement,
        italics: true,
        margin: [0, 0, 0, 6],
      },
      {
        table: { widths: [130, '*'], body: rows },
        layout: 'lightHorizontalLines',
        fontSize: 9.5,
      },
    ],
  };
  return pdfmake.createPdf(definition).getBuffer();
}
