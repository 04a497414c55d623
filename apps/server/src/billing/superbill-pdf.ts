import pdfmake from 'pdfmake';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { formatCents, type BillingIdentity } from '@telehealth/shared';
// The fonts and the no-file, no-URL access policy are set where the signed copies are built (decision 066).
import '../practice-documents/signed-copy.ts';

/**
 * A superbill (decision 073): what a patient sends their insurer to claim an out-of-network visit. Written in
 * English, since an insurer reads it, with one line in Spanish under the title saying what it is. Diagnosis codes
 * are those the services point to; amounts are cents, printed as dollars.
 */
export interface SuperbillData {
  identity: BillingIdentity;
  /** Today, in the practice's zone (YYYY-MM-DD). */
  issuedOn: string;
  period: { from: string; to: string };
  patient: {
    name: string;
    dateOfBirth: string;
    address: string | null;
    insuranceCompany: string | null;
    memberId: string | null;
  };
  providers: {
    name: string;
    npi: string;
    taxonomyCode: string | null;
    license: string | null;
  }[];
  services: {
    serviceDate: string;
    placeOfService: string;
    code: string;
    shortName: string;
    modifiers: string[];
    diagnosisCodes: string[];
    units: number;
    chargeCents: number;
    providerNpi: string;
  }[];
  /** Per visit's date of service: what was paid for that visit. */
  visits: { serviceDate: string; paidCents: number }[];
  totals: { chargedCents: number; paidCents: number; adjustmentsCents: number; balanceCents: number };
}

const money = (cents: number) => formatCents(cents, 'en-US');

export async function renderSuperbill(data: SuperbillData): Promise<Buffer> {
  const { identity, patient } = data;
  const labelled = (label: string, value: string | null): Content => ({
    text: [{ text: `${label}: `, bold: true }, value ?? 'not on file'],
  });
  const serviceRows: Content[][] = [
    ['Date', 'POS', 'Code', 'Modifiers', 'Diagnoses', 'Units', 'Fee', 'Rendering NPI'].map((text) => ({
      text,
      bold: true,
    })),
    ...data.services.map((s): Content[] => [
      s.serviceDate,
      s.placeOfService,
      { text: [{ text: s.code, bold: true }, `\n${s.shortName}`] },
      s.modifiers.join(' ') || '-',
      s.diagnosisCodes.join(', '),
      String(s.units),
      { text: money(s.chargeCents), alignment: 'right' },
      s.providerNpi,
    ]),
  ];
  const totals: Content[][] = [
    ['Total charged', money(data.totals.chargedCents)],
    ['Total paid', money(data.totals.paidCents)],
    ['Adjustments', money(data.totals.adjustmentsCents)],
    ['Balance', money(data.totals.balanceCents)],
  ].map(([label, value]) => [
    { text: label!, bold: true },
    { text: value!, alignment: 'right' },
  ]);
  const definition: TDocumentDefinitions = {
    info: { title: 'Superbill', creator: identity.legalName, producer: identity.legalName },
    pageSize: 'LETTER',
    pageOrientation: 'landscape',
    pageMargins: [40, 40, 40, 40],
    defaultStyle: { font: 'Roboto', fontSize: 9.5, lineHeight: 1.15 },
    content: [
      {
        columns: [
          {
            stack: [
              { text: identity.legalName, bold: true, fontSize: 12 },
              `${identity.street}`,
              `${identity.city}, ${identity.state} ${identity.zip}`,
              labelled('Tax ID (EIN)', identity.taxId),
            ],
          },
          {
            stack: [
              { text: 'Superbill', fontSize: 20, bold: true, alignment: 'right' },
              { text: 'Recibo detallado para reclamar al seguro', italics: true, alignment: 'right' },
              { text: `Issued ${data.issuedOn}`, alignment: 'right' },
              { text: `Services from ${data.period.from} to ${data.period.to}`, alignment: 'right' },
            ],
          },
        ],
        margin: [0, 0, 0, 12],
      },
      {
        columns: [
          {
            stack: [
              { text: 'Patient', fontSize: 12, bold: true, margin: [0, 0, 0, 4] },
              labelled('Name', patient.name),
              labelled('Date of birth', patient.dateOfBirth),
              labelled('Address', patient.address),
              labelled('Insurance company', patient.insuranceCompany),
              labelled('Member ID', patient.memberId),
            ],
          },
          {
            stack: [
              { text: 'Rendering provider', fontSize: 12, bold: true, margin: [0, 0, 0, 4] },
              ...data.providers.flatMap((p): Content[] => [
                labelled('Name', p.name),
                labelled('NPI', p.npi),
                labelled('Taxonomy', p.taxonomyCode),
                { ...(labelled('Licence', p.license) as object), margin: [0, 0, 0, 4] } as Content,
              ]),
            ],
          },
        ],
        margin: [0, 0, 0, 12],
      },
      { text: 'Services', fontSize: 12, bold: true, margin: [0, 0, 0, 4] },
      {
        table: { headerRows: 1, widths: [60, 30, '*', 55, 90, 35, 60, 70], body: serviceRows },
        layout: 'lightHorizontalLines',
      },
      {
        text: 'POS: place of service (02 telehealth elsewhere than home, 10 telehealth in the home, 11 office).',
        fontSize: 8,
        color: '#555555',
        margin: [0, 4, 0, 10],
      },
      ...(data.visits.some((v) => v.paidCents !== 0)
        ? [
            { text: 'Paid per visit', fontSize: 12, bold: true, margin: [0, 0, 0, 4] } as Content,
            {
              table: {
                widths: [100, 80],
                body: data.visits.map((v) => [v.serviceDate, { text: money(v.paidCents), alignment: 'right' }]),
              },
              layout: 'noBorders',
              margin: [0, 0, 0, 10],
            } as Content,
          ]
        : []),
      {
        table: { widths: [120, 80], body: totals },
        layout: 'lightHorizontalLines',
        unbreakable: true,
      },
    ],
  };
  return pdfmake.createPdf(definition).getBuffer();
}
