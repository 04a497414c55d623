import { describe, expect, it } from 'vitest';
import {
  AmountInputSchema,
  BillingIdentitySchema,
  FeeScheduleItemInputSchema,
  isValidNpi,
  NpiSchema,
  parseAmountToCents,
  ProviderBillingSchema,
  ServiceCodeSchema,
  STARTING_FEE_SCHEDULE,
  TaxIdSchema,
} from './billing.ts';
import { issueMessage } from './field-messages.ts';

const messageIdsOf = (result: { success: boolean; error?: { issues: Parameters<typeof issueMessage>[0][] } }) =>
  result.error?.issues.map((issue) => issueMessage(issue).id) ?? [];

describe('isValidNpi', () => {
  it("accepts CMS's example 1234567893", () => {
    expect(isValidNpi('1234567893')).toBe(true);
  });

  it('accepts 1922034560, checked by hand', () => {
    // Digits 1 9 2 2 0 3 4 5 6. Doubling every other one from the rightmost: 6→12→3, 4→8, 0→0, 2→4, 1→2 (17);
    // the others: 5 + 3 + 2 + 9 (19). 24 (the 80840 prefix) + 17 + 19 = 60, so the check digit is 0.
    expect(isValidNpi('1922034560')).toBe(true);
  });

  it('refuses a wrong check digit, a wrong length and anything but digits', () => {
    for (const npi of ['1234567890', '1234567894', '1922034561', '123456789', '12345678933', '12345678a3', ''])
      expect(isValidNpi(npi), npi).toBe(false);
  });

  it('is read through NpiSchema with spaces and dashes left out', () => {
    expect(NpiSchema.parse('123-456 7893')).toBe('1234567893');
    expect(messageIdsOf(NpiSchema.safeParse('1234567890'))).toEqual(['billingMessages.npiInvalid']);
  });
});

describe('parseAmountToCents', () => {
  it('reads dollars and cents as typed', () => {
    expect(parseAmountToCents('150')).toBe(15000);
    expect(parseAmountToCents('150.5')).toBe(15050);
    expect(parseAmountToCents('150.05')).toBe(15005);
    expect(parseAmountToCents(' $1,234.50 ')).toBe(123450);
    expect(parseAmountToCents('0')).toBe(0);
  });

  it('answers null for what is not an amount', () => {
    for (const input of ['', 'abc', '1.234', '-5', '1e3', '12.', '$', '1 000'])
      expect(parseAmountToCents(input), input).toBeNull();
  });

  it('AmountInputSchema refuses 0 and too much with coded messages', () => {
    expect(AmountInputSchema.parse('99.99')).toBe(9999);
    expect(messageIdsOf(AmountInputSchema.safeParse('0'))).toEqual(['billingMessages.amountZero']);
    expect(messageIdsOf(AmountInputSchema.safeParse('100000.01'))).toEqual(['billingMessages.amountTooLarge']);
    expect(messageIdsOf(AmountInputSchema.safeParse('ten'))).toEqual(['billingMessages.amountInvalid']);
  });
});

describe('the billing identities', () => {
  it('need every field of the practice filled', () => {
    const half = BillingIdentitySchema.safeParse({
      legalName: 'Meridian PLLC',
      street: '',
      city: ' ',
      state: 'NY',
      zip: '10001',
      taxId: '123456789',
    });
    expect(half.error?.issues.map((issue) => [issue.path.join('.'), issueMessage(issue).id])).toEqual([
      ['street', 'fieldMessages.required'],
      ['city', 'fieldMessages.required'],
    ]);
  });

  it("need a provider's licence number", () => {
    const provider = ProviderBillingSchema.safeParse({
      npi: '1234567893',
      taxonomyCode: '2084P0800X',
      licenseState: 'NY',
      licenseNumber: '',
    });
    expect(messageIdsOf(provider)).toEqual(['fieldMessages.required']);
  });
});

describe('TaxIdSchema', () => {
  it('writes nine digits as the forms do', () => {
    expect(TaxIdSchema.parse('123456789')).toBe('12-3456789');
    expect(TaxIdSchema.parse('12-3456789')).toBe('12-3456789');
  });

  it('refuses anything but nine digits', () => {
    for (const taxId of ['12345678', '1234567890', '12-345678A', ''])
      expect(messageIdsOf(TaxIdSchema.safeParse(taxId)), taxId).toEqual(['billingMessages.taxIdInvalid']);
  });
});

describe('ServiceCodeSchema', () => {
  it('accepts CPT (categories I to III) and HCPCS level II codes, upper-cased', () => {
    expect(ServiceCodeSchema.parse('90834')).toBe('90834');
    expect(ServiceCodeSchema.parse(' 3008f ')).toBe('3008F');
    expect(ServiceCodeSchema.parse('0591T')).toBe('0591T');
    expect(ServiceCodeSchema.parse('g0444')).toBe('G0444');
  });

  it('refuses other shapes', () => {
    for (const code of ['9083', '908345', 'W0444', 'G044', '9083X', ''])
      expect(messageIdsOf(ServiceCodeSchema.safeParse(code)), code).toEqual(['billingMessages.serviceCodeInvalid']);
  });
});

describe('the fee schedule', () => {
  it('takes a fee of 0', () => {
    const parsed = FeeScheduleItemInputSchema.parse({
      code: '96127',
      shortName: 'Rating scale',
      feeCents: 0,
      addOn: false,
      active: true,
    });
    expect(parsed).toMatchObject({ code: '96127', feeCents: 0 });
    expect(parsed.id).toBeUndefined();
  });

  it('refuses a blank short name', () => {
    const blank = FeeScheduleItemInputSchema.safeParse({
      code: '96127',
      shortName: '  ',
      feeCents: 0,
      addOn: false,
      active: true,
    });
    expect(messageIdsOf(blank)).toEqual(['fieldMessages.required']);
  });

  it('starts with valid, distinct codes', () => {
    const codes = STARTING_FEE_SCHEDULE.map((item) => item.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const item of STARTING_FEE_SCHEDULE)
      expect(FeeScheduleItemInputSchema.safeParse({ ...item, active: true }).success, item.code).toBe(true);
  });
});
