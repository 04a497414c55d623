import { z } from 'zod';
import { fieldMessage, messageSection } from './field-messages.ts';
import { ZipCodeSchema } from './patients.ts';
import { RecordIdSchema, textSchema, type TextOptions } from './text.ts';

/**
 * Getting paid (issue 30, decision 073): the practice's billing identity, its fee schedule, coding a visit, the
 * patient's ledger, superbills and statements. Money is always a whole number of cents (never a float); a ledger
 * entry is never changed or deleted, only reversed by another entry.
 */

/** Billing's messages (`billingMessages.*`). */
export const BILLING_MESSAGES = {
  cannotView: 'You do not have permission to view this billing record',
  cannotWrite: 'Only the patient’s provider or an administrator can bill for this patient.',
  cannotManage: 'Only an administrator can change the practice’s billing settings and fee schedule.',
  npiInvalid: 'Enter a 10-digit NPI whose check digit is right',
  npiTaken: 'Another provider already has this NPI',
  taxonomyInvalid: 'Enter a 10-character taxonomy code such as 2084P0800X',
  taxIdInvalid: 'Enter the tax id as nine digits, such as 12-3456789',
  stateInvalid: 'Enter the state as two letters, such as NY',
  serviceCodeInvalid: 'Enter a CPT code such as 90834 or an HCPCS code such as G0444',
  modifierInvalid: 'Enter each modifier as two letters or digits, such as 95',
  tooManyModifiers: 'A service takes at most {{max}} modifiers',
  duplicateModifier: 'Each modifier can be given once',
  amountInvalid: 'Enter an amount such as 150 or 150.00',
  amountTooLarge: 'The amount cannot be more than {{max}}',
  amountZero: 'The amount must be more than 0',
  unitsInvalid: 'Enter the units as a whole number from 1 to {{max}}',
  choosePlaceOfService: 'Please choose where the visit took place',
  choosePaymentMethod: 'Please choose how it was paid',
  chooseService: 'Please choose a service from the fee schedule',
  atLeastOneService: 'Add at least one service',
  tooManyServices: 'A visit takes at most {{max}} services',
  diagnosisRequired: 'Choose at least one of the patient’s diagnoses',
  tooManyDiagnoses: 'A visit takes at most {{max}} diagnoses',
  duplicateDiagnosis: 'Each diagnosis can be chosen once',
  pointerRequired: 'Point each service to at least one diagnosis',
  pointerInvalid: 'Point each service only to diagnoses chosen for this visit',
  diagnosisNotPatients: 'Each diagnosis must be on this patient’s problem list.',
  addOnNeedsPrimary: 'An add-on service needs a primary service on the same visit',
  serviceCodeTaken: 'The fee schedule already has this code',
  feeItemNotFound: 'Service not found in the fee schedule',
  feeItemInactive: 'This service is no longer offered: choose another',
  visitNotFound: 'Visit not found',
  visitNotReady: 'A visit can be coded once it is completed',
  visitNotReadySigned: 'A visit can be coded once its note is signed',
  codingUnchanged: 'Nothing changed in this visit’s coding',
  codingStale: 'This visit’s coding was changed by someone else. Reload it and try again.',
  entryNotFound: 'Ledger entry not found',
  alreadyReversed: 'This entry is already reversed',
  cannotReverseReversal: 'A reversal cannot be reversed; enter a new entry instead',
  reasonRequired: 'Please write the reason',
  dateInvalid: 'Please enter a valid date',
  dateInFuture: 'The date cannot be in the future',
  rangeInvalid: 'The end date cannot be before the start date',
  rangeTooLong: 'Choose a range of at most {{max}} days',
  identityMissing: 'Fill in the practice’s billing identity in Settings first',
  providerIdentityMissing: 'The provider’s NPI is missing: add it to their profile first',
  nothingToBill: 'There is nothing billed in this range',
  noPortalAccount: 'This patient has no portal account to send the statement to',
  chooseVisitOrRange: 'Choose a visit or a date range',
} as const;

export const billingMessage = messageSection('billingMessages', BILLING_MESSAGES);

// --- Identity ------------------------------------------------------------------------------------------------

/**
 * Whether `npi` is a valid National Provider Identifier: ten digits whose last is the Luhn check digit of the
 * first nine prefixed with the card issuer prefix 80840 (CMS, "Requirements for NPI check digit"). The prefix's
 * own contribution is the constant 24, so the sum is 24 plus the Luhn sum of the nine digits.
 */
export function isValidNpi(npi: string): boolean {
  if (!/^\d{10}$/.test(npi)) return false;
  let sum = 24;
  // From the rightmost of the nine digits, every other digit (starting with it) is doubled.
  for (let i = 8; i >= 0; i--) {
    let digit = Number(npi[i]);
    if ((8 - i) % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  const check = (10 - (sum % 10)) % 10;
  return check === Number(npi[9]);
}

export const NpiSchema = z
  .string({ error: billingMessage.error('npiInvalid') })
  .transform((value) => value.replace(/[\s-]/g, ''))
  .refine(isValidNpi, { error: billingMessage.error('npiInvalid') });

/** A Health Care Provider Taxonomy code: three digits, six letters or digits, then X (2084P0800X: psychiatry). */
export const TAXONOMY_CODE_PATTERN = /^\d{3}[0-9A-Z]{6}X$/;
export const TaxonomyCodeSchema = z
  .string({ error: billingMessage.error('taxonomyInvalid') })
  .transform((value) => value.trim().toUpperCase())
  .refine((value) => TAXONOMY_CODE_PATTERN.test(value), { error: billingMessage.error('taxonomyInvalid') });

/** An employer identification number as the forms write it: 12-3456789. */
export const TaxIdSchema = z
  .string({ error: billingMessage.error('taxIdInvalid') })
  .transform((value) => value.replace(/[\s-]/g, ''))
  .refine((value) => /^\d{9}$/.test(value), { error: billingMessage.error('taxIdInvalid') })
  .transform((digits) => `${digits.slice(0, 2)}-${digits.slice(2)}`);

export const UsStateSchema = z
  .string({ error: billingMessage.error('stateInvalid') })
  .transform((value) => value.trim().toUpperCase())
  .refine((value) => /^[A-Z]{2}$/.test(value), { error: billingMessage.error('stateInvalid') });

export const BILLING_LIMITS = {
  legalNameMax: 120,
  streetMax: 120,
  cityMax: 60,
  licenseMax: 30,
  shortNameMax: 60,
  reasonMax: 300,
  referenceMax: 40,
  /** $100,000.00: far above any one visit's charge or payment; a typo of extra zeros is refused. */
  maxCents: 10_000_000,
  maxUnits: 24,
  maxModifiers: 4,
  maxServices: 12,
  /** The claim form's four diagnosis pointers (A to D). */
  maxDiagnoses: 4,
  /** The longest range a superbill or report covers. */
  maxRangeDays: 366,
} as const;
const L = BILLING_LIMITS;

/** A text field that must be filled: `{label} is required` when blank (textSchema alone lets "" pass). */
function filledText(options: TextOptions) {
  return z
    .string({ error: fieldMessage.error('required', { label: options.label }) })
    .refine((value) => value.trim() !== '', { error: fieldMessage.error('required', { label: options.label }) })
    .pipe(textSchema(options));
}

/** The practice's billing identity (a practice setting): what a superbill and a statement print at the top. */
export const BillingIdentitySchema = z.object({
  legalName: filledText({ label: 'Legal name', kind: 'short', max: L.legalNameMax }),
  street: filledText({ label: 'Street', kind: 'short', max: L.streetMax }),
  city: filledText({ label: 'City', kind: 'short', max: L.cityMax }),
  state: UsStateSchema,
  zip: ZipCodeSchema,
  taxId: TaxIdSchema,
});
export type BillingIdentity = z.output<typeof BillingIdentitySchema>;

/** A provider's billing fields (their profile): NPI, taxonomy code and licence. */
export const ProviderBillingSchema = z.object({
  npi: NpiSchema,
  taxonomyCode: TaxonomyCodeSchema,
  licenseState: UsStateSchema,
  licenseNumber: filledText({ label: 'Licence number', kind: 'token', max: L.licenseMax }),
});
export type ProviderBilling = z.output<typeof ProviderBillingSchema>;

// --- Money ---------------------------------------------------------------------------------------------------

/** An amount as typed ("150", "150.5", "$1,234.50"): its cents, or null when it is not an amount. */
export function parseAmountToCents(input: string): number | null {
  const cleaned = input.trim().replace(/^\$/, '').replace(/,/g, '');
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Cents as the locale writes dollars: 123450 → "$1,234.50" (en) or "1234,50 US$" (es). */
export function formatCents(cents: number, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(cents / 100);
}

/** An amount of money in cents as the API takes it: a whole number above 0 and at most BILLING_LIMITS.maxCents. */
export const CentsSchema = z
  .number({ error: billingMessage.error('amountInvalid') })
  .int({ error: billingMessage.error('amountInvalid') })
  .min(1, { error: billingMessage.error('amountZero') })
  .max(L.maxCents, { error: billingMessage.error('amountTooLarge', { max: formatCents(L.maxCents) }) });

/** A fee may be 0 (a service the practice does not charge for). */
export const FeeCentsSchema = z
  .number({ error: billingMessage.error('amountInvalid') })
  .int({ error: billingMessage.error('amountInvalid') })
  .min(0, { error: billingMessage.error('amountInvalid') })
  .max(L.maxCents, { error: billingMessage.error('amountTooLarge', { max: formatCents(L.maxCents) }) });

/** An amount typed in a form (a string), as cents: what the forms validate before sending CentsSchema's number. */
export const AmountInputSchema = z
  .string({ error: billingMessage.error('amountInvalid') })
  .transform((value, ctx) => {
    const cents = parseAmountToCents(value);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', ...billingMessage.issue('amountInvalid') });
      return z.NEVER;
    }
    return cents;
  })
  .pipe(CentsSchema);

// --- Codes ---------------------------------------------------------------------------------------------------

/**
 * A service code: a CPT code (five characters: four digits then a digit, or F for Category II, T for Category III)
 * or an HCPCS Level II code (a letter A to V, then four digits). Upper case.
 */
export const SERVICE_CODE_PATTERN = /^(\d{4}[0-9FT]|[A-V]\d{4})$/;
export const ServiceCodeSchema = z
  .string({ error: billingMessage.error('serviceCodeInvalid') })
  .transform((value) => value.trim().toUpperCase())
  .refine((value) => SERVICE_CODE_PATTERN.test(value), { error: billingMessage.error('serviceCodeInvalid') });

export const MODIFIER_PATTERN = /^[0-9A-Z]{2}$/;
export const ModifierSchema = z
  .string({ error: billingMessage.error('modifierInvalid') })
  .transform((value) => value.trim().toUpperCase())
  .refine((value) => MODIFIER_PATTERN.test(value), { error: billingMessage.error('modifierInvalid') });

/** The telehealth modifiers: 95 a synchronous audio and video visit, 93 an audio-only one. */
export const TELEHEALTH_MODIFIERS = { video: '95', audioOnly: '93' } as const;

/**
 * The places of service a psychiatry practice uses (CMS place of service codes): 02 telehealth with the patient
 * somewhere other than their home, 10 telehealth with the patient at home, 11 the office.
 */
export const PLACES_OF_SERVICE = ['02', '10', '11'] as const;
export type PlaceOfService = (typeof PLACES_OF_SERVICE)[number];
export const PlaceOfServiceSchema = z.enum(PLACES_OF_SERVICE, { error: billingMessage.error('choosePlaceOfService') });

/**
 * What the coding form proposes for a visit: a video visit is telehealth with modifier 95 and, since most patients
 * join from home, place of service 10 (the provider changes it to 02 when the patient was elsewhere, or the
 * modifier to 93 when the visit went on by audio only); an in-person visit is 11 with no modifier.
 */
export function proposedCoding(appointmentType: 'in-person' | 'video'): {
  placeOfService: PlaceOfService;
  modifiers: string[];
} {
  return appointmentType === 'video'
    ? { placeOfService: '10', modifiers: [TELEHEALTH_MODIFIERS.video] }
    : { placeOfService: '11', modifiers: [] };
}

// --- Fee schedule --------------------------------------------------------------------------------------------

export const FeeScheduleItemInputSchema = z.object({
  /** Absent when adding a service; the service's id when changing it. */
  id: RecordIdSchema.nullish().transform((value) => value ?? undefined),
  code: ServiceCodeSchema,
  /** The practice's own short name (the AMA's descriptions are copyrighted and not shipped). */
  shortName: filledText({ label: 'Short name', kind: 'short', max: L.shortNameMax }),
  feeCents: FeeCentsSchema,
  /** An add-on code is billed only with a primary service on the same visit (90833 with an E/M visit). */
  addOn: z.boolean({ error: billingMessage.error('chooseService') }),
  active: z.boolean({ error: billingMessage.error('chooseService') }),
});
export type FeeScheduleItemInput = z.input<typeof FeeScheduleItemInputSchema>;

/**
 * The fee schedule a practice starts with, marked as examples to review: common psychiatry services with short
 * names of our own and round example fees. The fees are not advice; the practice sets its own.
 */
export const STARTING_FEE_SCHEDULE: readonly { code: string; shortName: string; feeCents: number; addOn: boolean }[] = [
  { code: '90791', shortName: 'Diagnostic evaluation', feeCents: 30000, addOn: false },
  { code: '90792', shortName: 'Diagnostic evaluation, medical', feeCents: 35000, addOn: false },
  { code: '99204', shortName: 'New patient visit, moderate', feeCents: 25000, addOn: false },
  { code: '99205', shortName: 'New patient visit, high', feeCents: 32000, addOn: false },
  { code: '99213', shortName: 'Follow-up visit, low', feeCents: 12000, addOn: false },
  { code: '99214', shortName: 'Follow-up visit, moderate', feeCents: 17500, addOn: false },
  { code: '99215', shortName: 'Follow-up visit, high', feeCents: 24000, addOn: false },
  { code: '90832', shortName: 'Therapy, 30 minutes', feeCents: 9000, addOn: false },
  { code: '90834', shortName: 'Therapy, 45 minutes', feeCents: 13000, addOn: false },
  { code: '90837', shortName: 'Therapy, 60 minutes', feeCents: 17000, addOn: false },
  { code: '90833', shortName: 'Therapy with a visit, 30 minutes', feeCents: 8000, addOn: true },
  { code: '90836', shortName: 'Therapy with a visit, 45 minutes', feeCents: 11000, addOn: true },
  { code: '90838', shortName: 'Therapy with a visit, 60 minutes', feeCents: 14500, addOn: true },
  { code: '90785', shortName: 'Interactive complexity', feeCents: 2000, addOn: true },
  { code: '90846', shortName: 'Family therapy, patient absent', feeCents: 13000, addOn: false },
  { code: '90847', shortName: 'Family therapy, patient present', feeCents: 14000, addOn: false },
  { code: '90853', shortName: 'Group therapy', feeCents: 6000, addOn: false },
  { code: '96127', shortName: 'Rating scale, scored', feeCents: 1000, addOn: false },
];

/** When a visit may be coded (a practice setting): once it is completed, or once its note is signed too. */
export const VISIT_CODING_AFTER = ['completed', 'note-signed'] as const;
export type VisitCodingAfter = (typeof VISIT_CODING_AFTER)[number];
