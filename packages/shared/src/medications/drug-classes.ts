/**
 * The drug classes of the practice's medication list (psychiatry in US practice). A class is what the warnings
 * screen works on (warnings.ts): a drug typed in by hand has a class chosen by the prescriber, and a catalogue drug
 * has its own (catalogue.ts).
 */

/** Text in each language the practice serves. */
export interface LocalizedText {
  readonly en: string;
  readonly es: string;
}

/** A language a medication label or sig is written in. */
export type LabelLanguage = keyof LocalizedText;

export const DRUG_CLASSES = [
  'ssri',
  'snri',
  'tca',
  'maoi',
  'atypical-antidepressant',
  'antipsychotic-first-generation',
  'antipsychotic-second-generation',
  'mood-stabilizer',
  'benzodiazepine',
  'z-hypnotic',
  'other-hypnotic',
  'stimulant',
  'adhd-non-stimulant',
  'opioid-agonist',
  'opioid-antagonist',
  'alcohol-use-disorder',
  'anxiolytic-other',
  'beta-blocker',
  'anticholinergic',
  'nmda-antagonist',
  'other',
] as const;
export type DrugClass = (typeof DRUG_CLASSES)[number];

/** Each class's name for the screen, in the form a list or a sentence ("… of one class: {class}") can show. */
export const DRUG_CLASS_LABELS: Readonly<Record<DrugClass, LocalizedText>> = {
  ssri: { en: 'SSRI', es: 'ISRS' },
  snri: { en: 'SNRI', es: 'IRSN' },
  tca: { en: 'Tricyclic antidepressant', es: 'Antidepresivo tricíclico' },
  maoi: { en: 'MAOI', es: 'IMAO' },
  'atypical-antidepressant': { en: 'Atypical antidepressant', es: 'Antidepresivo atípico' },
  'antipsychotic-first-generation': {
    en: 'First-generation antipsychotic',
    es: 'Antipsicótico de primera generación',
  },
  'antipsychotic-second-generation': {
    en: 'Second-generation antipsychotic',
    es: 'Antipsicótico de segunda generación',
  },
  'mood-stabilizer': { en: 'Mood stabilizer', es: 'Estabilizador del estado de ánimo' },
  benzodiazepine: { en: 'Benzodiazepine', es: 'Benzodiazepina' },
  'z-hypnotic': { en: 'Z-drug hypnotic', es: 'Hipnótico tipo Z' },
  'other-hypnotic': { en: 'Other hypnotic', es: 'Otro hipnótico' },
  stimulant: { en: 'Stimulant', es: 'Estimulante' },
  'adhd-non-stimulant': { en: 'ADHD non-stimulant', es: 'No estimulante para el TDAH' },
  'opioid-agonist': { en: 'Opioid agonist', es: 'Agonista opioide' },
  'opioid-antagonist': { en: 'Opioid antagonist', es: 'Antagonista opioide' },
  'alcohol-use-disorder': {
    en: 'Alcohol use disorder medication',
    es: 'Medicamento para el trastorno por consumo de alcohol',
  },
  'anxiolytic-other': { en: 'Other anxiolytic', es: 'Otro ansiolítico' },
  'beta-blocker': { en: 'Beta blocker', es: 'Betabloqueador' },
  anticholinergic: { en: 'Anticholinergic', es: 'Anticolinérgico' },
  'nmda-antagonist': { en: 'NMDA receptor antagonist', es: 'Antagonista del receptor NMDA' },
  other: { en: 'Other', es: 'Otro' },
};

/**
 * Whether a drug of the class counts as serotonergic for the MAOI screen when nothing more is known of it (a drug
 * typed in by hand). A catalogue drug may say otherwise (`CatalogueDrug.serotonergic`): bupropion is an atypical
 * antidepressant that is not serotonergic, buspirone and methadone are serotonergic drugs of classes that are not.
 * The atypical antidepressants default to serotonergic because all but bupropion are (trazodone, nefazodone,
 * mirtazapine, vilazodone, vortioxetine), so an unknown one is screened rather than let through.
 */
export const SEROTONERGIC_BY_CLASS: Readonly<Record<DrugClass, boolean>> = {
  ssri: true,
  snri: true,
  tca: true,
  maoi: true,
  'atypical-antidepressant': true,
  'antipsychotic-first-generation': false,
  'antipsychotic-second-generation': false,
  'mood-stabilizer': false,
  benzodiazepine: false,
  'z-hypnotic': false,
  'other-hypnotic': false,
  stimulant: false,
  'adhd-non-stimulant': false,
  'opioid-agonist': false,
  'opioid-antagonist': false,
  'alcohol-use-disorder': false,
  'anxiolytic-other': false,
  'beta-blocker': false,
  anticholinergic: false,
  'nmda-antagonist': false,
  other: false,
};

/** US DEA schedules a prescription can carry (schedule I drugs are not prescribed). */
export const CONTROLLED_SCHEDULES = ['II', 'III', 'IV', 'V'] as const;
export type ControlledSchedule = (typeof CONTROLLED_SCHEDULES)[number];
