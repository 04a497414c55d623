import { findCatalogueDrug } from './catalogue.ts';
import { DRUG_CLASS_LABELS, DRUG_CLASSES, SEROTONERGIC_BY_CLASS } from './drug-classes.ts';
import type { DrugClass, LabelLanguage, LocalizedText } from './drug-classes.ts';

/**
 * Warnings on a patient's active medications: two or more drugs of one class, and a few well-known dangerous class
 * combinations. Pure and deterministic, so the browser can show them while a list is edited and the server can
 * attach the same ones to what it stores.
 */

/** What the screen is and is not; shown wherever its warnings are, so that no warning's absence reads as "safe". */
export const MEDICATION_WARNINGS_SCOPE: LocalizedText = {
  en: 'This is a class-level screen for duplicate drug classes and a few well-known dangerous combinations. It is not a drug-interaction database: check the prescribing information and an interaction checker before prescribing.',
  es: 'Esta es una revisión por clase de medicamento que detecta clases duplicadas y algunas combinaciones peligrosas bien conocidas. No es una base de datos de interacciones: consulte la información de prescripción y un verificador de interacciones antes de recetar.',
};

export const COMBINATION_RULES = [
  'maoi-serotonergic',
  'maoi-noradrenergic',
  'maoi-stimulant',
  'benzodiazepine-opioid',
  'benzodiazepine-z-hypnotic',
] as const;
export type CombinationRule = (typeof COMBINATION_RULES)[number];

/** Why each combination is dangerous, in a sentence or two for the prescriber. */
export const COMBINATION_RULE_LABELS: Readonly<Record<CombinationRule, LocalizedText>> = {
  'maoi-serotonergic': {
    en: 'An MAOI with another serotonergic drug (an SSRI, SNRI or tricyclic, a serotonergic antidepressant such as trazodone or mirtazapine, buspirone, methadone) can cause serotonin syndrome. The labels contraindicate the combination and require a washout between them.',
    es: 'Un IMAO con otro medicamento serotoninérgico (un ISRS, IRSN o tricíclico, un antidepresivo serotoninérgico como la trazodona o la mirtazapina, la buspirona, la metadona) puede causar síndrome serotoninérgico. La información de prescripción contraindica la combinación y exige un período de eliminación entre ambos.',
  },
  'maoi-noradrenergic': {
    en: 'An MAOI with bupropion, atomoxetine or viloxazine can cause a hypertensive crisis. The labels contraindicate the combination.',
    es: 'Un IMAO con bupropión, atomoxetina o viloxazina puede causar una crisis hipertensiva. La información de prescripción contraindica la combinación.',
  },
  'maoi-stimulant': {
    en: 'An MAOI with a stimulant can cause a hypertensive crisis. The labels contraindicate the combination.',
    es: 'Un IMAO con un estimulante puede causar una crisis hipertensiva. La información de prescripción contraindica la combinación.',
  },
  'benzodiazepine-opioid': {
    en: 'A benzodiazepine or Z-drug with an opioid can cause profound sedation, slowed breathing, coma and death (FDA boxed warning). For buprenorphine or methadone treatment, the FDA advises managing the risk rather than withholding treatment.',
    es: 'Una benzodiazepina o un hipnótico tipo Z con un opioide puede causar sedación profunda, depresión respiratoria, coma y muerte (advertencia de recuadro negro de la FDA). En el tratamiento con buprenorfina o metadona, la FDA aconseja controlar el riesgo en lugar de negar el tratamiento.',
  },
  'benzodiazepine-z-hypnotic': {
    en: 'A benzodiazepine with a Z-drug hypnotic: two sedative-hypnotics add sedation, impairment, falls and complex sleep behaviors.',
    es: 'Una benzodiazepina con un hipnótico tipo Z: dos sedantes hipnóticos suman sedación, deterioro, caídas y conductas complejas durante el sueño.',
  },
};

/** The same-class warning's text; `{class}` stands for the class's label (DRUG_CLASS_LABELS). */
export const SAME_CLASS_WARNING_TEXT: LocalizedText = {
  en: 'Two or more active medications of one class: {class}. Check that this is intended.',
  es: 'Dos o más medicamentos activos de la misma clase: {class}. Compruebe que sea intencional.',
};

/** The same-class warning's text for a class, in a language. */
export function sameClassWarningText(drugClass: DrugClass, language: LabelLanguage): string {
  return SAME_CLASS_WARNING_TEXT[language].replace('{class}', DRUG_CLASS_LABELS[drugClass][language]);
}

/** An active medication as the screen needs it; `drugClass` null when the prescriber chose none. */
export interface ActiveMedication {
  id: string;
  generic: string;
  drugClass: DrugClass | null;
}

export type MedicationWarning =
  | { kind: 'same-class'; drugClass: DrugClass; ids: string[] }
  | { kind: 'dangerous-combination'; rule: CombinationRule; ids: string[] };

/** An active medication with what the screen knows of it. */
interface Screened {
  id: string;
  /** The normalized generic, so that two rows of one drug (e.g. 100 mg and 25 mg tablets) are one drug. */
  name: string;
  drugClass: DrugClass | null;
  serotonergic: boolean;
  maoiHypertensiveRisk: boolean;
}

type Side = (drug: Screened) => boolean;

const ofClass =
  (...classes: DrugClass[]): Side =>
  (drug) =>
    drug.drugClass !== null && classes.includes(drug.drugClass);

/**
 * Each rule as two sides; it fires when one active drug is on the first side and another on the second. The sides
 * do not overlap: the MAOIs, serotonergic themselves, are on the first side only.
 */
const RULE_SIDES: Readonly<Record<CombinationRule, readonly [Side, Side]>> = {
  'maoi-serotonergic': [ofClass('maoi'), (drug) => drug.serotonergic && drug.drugClass !== 'maoi'],
  'maoi-noradrenergic': [ofClass('maoi'), (drug) => drug.maoiHypertensiveRisk && drug.drugClass !== 'maoi'],
  'maoi-stimulant': [ofClass('maoi'), ofClass('stimulant')],
  'benzodiazepine-opioid': [ofClass('benzodiazepine', 'z-hypnotic'), ofClass('opioid-agonist')],
  'benzodiazepine-z-hypnotic': [ofClass('benzodiazepine'), ofClass('z-hypnotic')],
};

/**
 * What the screen knows of a drug. The class is the one given, or the catalogue's when none was given. The flags are
 * the drug's own where the name is a catalogue generic or brand (whatever class was chosen for it), else the given
 * class's default.
 */
function screen(medication: ActiveMedication): Screened {
  const known = findCatalogueDrug(medication.generic);
  const drugClass = medication.drugClass ?? known?.drugClass ?? null;
  const serotonergic = known
    ? (known.serotonergic ?? SEROTONERGIC_BY_CLASS[known.drugClass])
    : drugClass !== null && SEROTONERGIC_BY_CLASS[drugClass];
  return {
    id: medication.id,
    name: known?.generic ?? medication.generic.trim().replace(/\s+/g, ' ').toLowerCase(),
    drugClass,
    serotonergic,
    maoiHypertensiveRisk: known?.maoiHypertensiveRisk ?? false,
  };
}

/** The medications once each, by id, in the order given. */
function uniqueById(active: readonly ActiveMedication[]): ActiveMedication[] {
  const byId = new Map<string, ActiveMedication>();
  for (const medication of active) if (!byId.has(medication.id)) byId.set(medication.id, medication);
  return [...byId.values()];
}

/**
 * The warnings for a patient's active medications: first one 'same-class' warning per class with two or more
 * different drugs (never 'other' or no class), in DRUG_CLASSES order; then one 'dangerous-combination' warning per
 * rule that fires, in COMBINATION_RULES order, naming every drug on either side. Ids keep the order they were given
 * in; an id given twice counts once.
 */
export function medicationWarnings(active: readonly ActiveMedication[]): MedicationWarning[] {
  const drugs = uniqueById(active).map(screen);
  const warnings: MedicationWarning[] = [];

  for (const drugClass of DRUG_CLASSES) {
    if (drugClass === 'other') continue;
    const inClass = drugs.filter((drug) => drug.drugClass === drugClass);
    if (new Set(inClass.map((drug) => drug.name)).size >= 2)
      warnings.push({ kind: 'same-class', drugClass, ids: inClass.map((drug) => drug.id) });
  }

  for (const rule of COMBINATION_RULES) {
    const [first, second] = RULE_SIDES[rule];
    const firsts = drugs.filter(first);
    const seconds = drugs.filter(second);
    if (firsts.some((a) => seconds.some((b) => a.name !== b.name)))
      warnings.push({
        kind: 'dangerous-combination',
        rule,
        ids: drugs.filter((drug) => first(drug) || second(drug)).map((drug) => drug.id),
      });
  }
  return warnings;
}
