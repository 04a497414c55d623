import type { LabelLanguage, LocalizedText } from './drug-classes.ts';

/**
 * A structured dose (amount, unit, route, frequency, as needed) and the readable sig written from it, in English
 * and Spanish, so a prescription is stored as data and shown the same way on every screen.
 */

export const DOSE_UNITS = ['mg', 'mcg', 'g', 'mL', 'tablet', 'capsule', 'patch', 'spray', 'drop', 'unit'] as const;
export type DoseUnit = (typeof DOSE_UNITS)[number];

/**
 * Dosage forms. 'oral-solution' stands for every oral liquid (solution, suspension, concentrate, elixir), and a
 * delayed-release or chewable tablet or capsule is filed under 'tablet' or 'capsule': the list names what a
 * prescriber picks, not every form in the labelling.
 */
export const MEDICATION_FORMS = [
  'tablet',
  'tablet-extended-release',
  'capsule',
  'capsule-extended-release',
  'oral-solution',
  'orally-disintegrating-tablet',
  'patch',
  'injection',
  'long-acting-injection',
  'nasal-spray',
  'film',
  'other',
] as const;
export type MedicationForm = (typeof MEDICATION_FORMS)[number];

export const ROUTES = [
  'oral',
  'sublingual',
  'buccal',
  'transdermal',
  'intramuscular',
  'subcutaneous',
  'intranasal',
  'other',
] as const;
export type Route = (typeof ROUTES)[number];

export const FREQUENCIES = [
  'once-daily',
  'twice-daily',
  'three-times-daily',
  'four-times-daily',
  'every-morning',
  'at-bedtime',
  'every-other-day',
  'once-weekly',
  'every-2-weeks',
  'every-4-weeks',
  'every-3-months',
  'as-directed',
] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** A structured dose: what `formatSig` writes out. */
export interface MedicationDose {
  amount: number;
  unit: DoseUnit;
  route: Route;
  frequency: Frequency;
  asNeeded: boolean;
  /** Printed as written after "as needed for" / "según sea necesario para"; it is not translated. */
  asNeededReason?: string | null;
}

/** Each unit's name for a picker (the singular; the sig chooses the plural itself). */
export const DOSE_UNIT_LABELS: Readonly<Record<DoseUnit, LocalizedText>> = {
  mg: { en: 'mg', es: 'mg' },
  mcg: { en: 'mcg', es: 'mcg' },
  g: { en: 'g', es: 'g' },
  mL: { en: 'mL', es: 'mL' },
  tablet: { en: 'tablet', es: 'tableta' },
  capsule: { en: 'capsule', es: 'cápsula' },
  patch: { en: 'patch', es: 'parche' },
  spray: { en: 'spray', es: 'atomización' },
  drop: { en: 'drop', es: 'gota' },
  unit: { en: 'unit', es: 'unidad' },
};

/** The plural of each unit; the measures (mg, mL, ...) do not change. */
const DOSE_UNIT_PLURALS: Readonly<Record<DoseUnit, LocalizedText>> = {
  mg: { en: 'mg', es: 'mg' },
  mcg: { en: 'mcg', es: 'mcg' },
  g: { en: 'g', es: 'g' },
  mL: { en: 'mL', es: 'mL' },
  tablet: { en: 'tablets', es: 'tabletas' },
  capsule: { en: 'capsules', es: 'cápsulas' },
  patch: { en: 'patches', es: 'parches' },
  spray: { en: 'sprays', es: 'atomizaciones' },
  drop: { en: 'drops', es: 'gotas' },
  unit: { en: 'units', es: 'unidades' },
};

export const FORM_LABELS: Readonly<Record<MedicationForm, LocalizedText>> = {
  tablet: { en: 'Tablet', es: 'Tableta' },
  'tablet-extended-release': { en: 'Extended-release tablet', es: 'Tableta de liberación prolongada' },
  capsule: { en: 'Capsule', es: 'Cápsula' },
  'capsule-extended-release': { en: 'Extended-release capsule', es: 'Cápsula de liberación prolongada' },
  'oral-solution': { en: 'Oral solution', es: 'Solución oral' },
  'orally-disintegrating-tablet': { en: 'Orally disintegrating tablet', es: 'Tableta de desintegración oral' },
  patch: { en: 'Patch', es: 'Parche' },
  injection: { en: 'Injection', es: 'Inyección' },
  'long-acting-injection': { en: 'Long-acting injection', es: 'Inyección de acción prolongada' },
  'nasal-spray': { en: 'Nasal spray', es: 'Aerosol nasal' },
  film: { en: 'Film', es: 'Película' },
  other: { en: 'Other', es: 'Otra' },
};

export const ROUTE_LABELS: Readonly<Record<Route, LocalizedText>> = {
  oral: { en: 'Oral', es: 'Oral' },
  sublingual: { en: 'Sublingual', es: 'Sublingual' },
  buccal: { en: 'Buccal', es: 'Bucal' },
  transdermal: { en: 'Transdermal', es: 'Transdérmica' },
  intramuscular: { en: 'Intramuscular', es: 'Intramuscular' },
  subcutaneous: { en: 'Subcutaneous', es: 'Subcutánea' },
  intranasal: { en: 'Intranasal', es: 'Intranasal' },
  other: { en: 'Other', es: 'Otra' },
};

/**
 * How the sig says the route; 'other' says nothing, as the route is then written in the instructions, not guessed.
 * English uses the plain words of patient labels ("by mouth", "under the tongue"); Spanish the usual "por vía ...".
 */
const ROUTE_PHRASES: Readonly<Record<Route, LocalizedText | null>> = {
  oral: { en: 'by mouth', es: 'por vía oral' },
  sublingual: { en: 'under the tongue', es: 'por vía sublingual' },
  buccal: { en: 'between the cheek and gum', es: 'por vía bucal' },
  transdermal: { en: 'on the skin', es: 'por vía transdérmica' },
  intramuscular: { en: 'into the muscle', es: 'por vía intramuscular' },
  subcutaneous: { en: 'under the skin', es: 'por vía subcutánea' },
  intranasal: { en: 'in the nose', es: 'por vía intranasal' },
  other: null,
};

/** How the sig says the frequency (lower case, as it sits mid-sentence). */
const FREQUENCY_PHRASES: Readonly<Record<Frequency, LocalizedText>> = {
  'once-daily': { en: 'once daily', es: 'una vez al día' },
  'twice-daily': { en: 'twice daily', es: 'dos veces al día' },
  'three-times-daily': { en: 'three times daily', es: 'tres veces al día' },
  'four-times-daily': { en: 'four times daily', es: 'cuatro veces al día' },
  'every-morning': { en: 'every morning', es: 'todas las mañanas' },
  'at-bedtime': { en: 'at bedtime', es: 'a la hora de acostarse' },
  'every-other-day': { en: 'every other day', es: 'un día sí y otro no' },
  'once-weekly': { en: 'once weekly', es: 'una vez a la semana' },
  'every-2-weeks': { en: 'every 2 weeks', es: 'cada 2 semanas' },
  'every-4-weeks': { en: 'every 4 weeks', es: 'cada 4 semanas' },
  'every-3-months': { en: 'every 3 months', es: 'cada 3 meses' },
  'as-directed': { en: 'as directed', es: 'según las indicaciones' },
};

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Each frequency's name for a picker: the sig's words with a capital ("Once daily", "Una vez al día"). */
export const FREQUENCY_LABELS: Readonly<Record<Frequency, LocalizedText>> = Object.fromEntries(
  FREQUENCIES.map((frequency) => {
    const phrase = FREQUENCY_PHRASES[frequency];
    return [frequency, { en: capitalize(phrase.en), es: capitalize(phrase.es) }];
  }),
) as Record<Frequency, LocalizedText>;

const AS_NEEDED: LocalizedText = { en: 'as needed', es: 'según sea necesario' };
const AS_NEEDED_FOR: LocalizedText = { en: 'for', es: 'para' };

/**
 * A dose amount as the sig prints it: no trailing zeros and a leading zero kept ("0.5", never ".5" or "0.50":
 * the Joint Commission's and ISMP's rule, as a lost point or a stray zero is a tenfold error). Rounded to four
 * decimals so a sum such as 0.1 + 0.2 prints as 0.3. Spanish keeps the decimal point too, as US practice does: a
 * comma on a US label or prescription could be read as a thousands separator.
 */
export function formatDoseAmount(amount: number): string {
  if (!Number.isFinite(amount) || amount <= 0) throw new RangeError(`A dose amount must be above 0 (got ${amount})`);
  const rounded = Number(amount.toFixed(4));
  if (rounded === 0) throw new RangeError(`A dose amount must be above 0 (got ${amount})`);
  // Below 1e21 String() never uses an exponent, and toFixed has already dropped anything past four decimals.
  return String(rounded);
}

/**
 * The readable sig of a structured dose: "50 mg by mouth once daily", "1 tablet under the tongue at bedtime as
 * needed for sleep", "50 mg por vía oral una vez al día". The unit is plural for any amount but exactly 1.
 */
export function formatSig(dose: MedicationDose, language: LabelLanguage): string {
  const amount = formatDoseAmount(dose.amount);
  const unit = (Number(amount) === 1 ? DOSE_UNIT_LABELS : DOSE_UNIT_PLURALS)[dose.unit][language];
  const parts = [amount, unit];
  const route = ROUTE_PHRASES[dose.route];
  if (route) parts.push(route[language]);
  parts.push(FREQUENCY_PHRASES[dose.frequency][language]);
  if (dose.asNeeded) {
    parts.push(AS_NEEDED[language]);
    const reason = asNeededReasonText(dose.asNeededReason, language);
    if (reason) parts.push(AS_NEEDED_FOR[language], reason);
  }
  return parts.join(' ');
}

/** The reason as written, trimmed, without a leading "for"/"para" the prescriber may have typed already. */
function asNeededReasonText(reason: string | null | undefined, language: LabelLanguage): string {
  const text = (reason ?? '').trim().replace(/\s+/g, ' ');
  const lead = `${AS_NEEDED_FOR[language]} `;
  return text.toLowerCase().startsWith(lead) ? text.slice(lead.length).trim() : text;
}
