import type { ControlledSchedule, DrugClass } from './drug-classes.ts';
import type { MedicationForm } from './sig.ts';

/**
 * The medication catalogue: common psychiatric medications in US practice, to pick from when a medication is added.
 * It is a convenience, not a limit: a medication that is not here is typed in with a class chosen by hand.
 *
 * Conventions. `generic` is the key: the US established name in lower case ('divalproex sodium', 'buprenorphine and
 * naloxone'; a combination is always "A and B", so Adderall is 'dextroamphetamine and amphetamine'). `brands` keeps
 * the names clinicians and patients still say even where the brand has left the US market (Celexa's generics are
 * the product, "Luvox" is still what people call fluvoxamine), so that search finds them. `strengths` are the usual
 * marketed strengths from US labelling across the listed forms, with a leading zero and no trailing zeros
 * ('0.5 mg', '12.5 mg', '20 mg/mL'); they are a picking aid, not a formulary. `controlledSchedule` is the federal
 * DEA schedule; a state may schedule more (gabapentin is schedule V in several states, not federally).
 */
export interface CatalogueDrug {
  generic: string;
  brands: readonly string[];
  drugClass: DrugClass;
  strengths: readonly string[];
  forms: readonly MedicationForm[];
  controlledSchedule: ControlledSchedule | null;
  /**
   * Overrides the class's default (SEROTONERGIC_BY_CLASS) for the MAOI screen: bupropion is not serotonergic,
   * buspirone and methadone are.
   */
  serotonergic?: boolean;
  /** An MAOI with this drug risks a hypertensive crisis and its label contraindicates the pair (bupropion, atomoxetine, viloxazine). */
  maoiHypertensiveRisk?: boolean;
}

export const MEDICATION_CATALOGUE: readonly CatalogueDrug[] = [
  // SSRIs
  {
    generic: 'citalopram',
    brands: ['Celexa'],
    drugClass: 'ssri',
    strengths: ['10 mg', '20 mg', '40 mg', '10 mg/5 mL'],
    forms: ['tablet', 'oral-solution'],
    controlledSchedule: null,
  },
  {
    generic: 'escitalopram',
    brands: ['Lexapro'],
    drugClass: 'ssri',
    strengths: ['5 mg', '10 mg', '20 mg', '5 mg/5 mL'],
    forms: ['tablet', 'oral-solution'],
    controlledSchedule: null,
  },
  {
    generic: 'fluoxetine',
    brands: ['Prozac'],
    drugClass: 'ssri',
    strengths: ['10 mg', '20 mg', '40 mg', '60 mg', '20 mg/5 mL'],
    forms: ['capsule', 'tablet', 'oral-solution'],
    controlledSchedule: null,
  },
  {
    generic: 'fluvoxamine',
    brands: ['Luvox', 'Luvox CR'],
    drugClass: 'ssri',
    strengths: ['25 mg', '50 mg', '100 mg', '150 mg'],
    forms: ['tablet', 'capsule-extended-release'],
    controlledSchedule: null,
  },
  {
    generic: 'paroxetine',
    brands: ['Paxil', 'Paxil CR', 'Pexeva'],
    drugClass: 'ssri',
    strengths: ['10 mg', '12.5 mg', '20 mg', '25 mg', '30 mg', '37.5 mg', '40 mg', '10 mg/5 mL'],
    forms: ['tablet', 'tablet-extended-release', 'oral-solution'],
    controlledSchedule: null,
  },
  {
    generic: 'sertraline',
    brands: ['Zoloft'],
    drugClass: 'ssri',
    strengths: ['25 mg', '50 mg', '100 mg', '20 mg/mL'],
    forms: ['tablet', 'oral-solution'],
    controlledSchedule: null,
  },
  // SNRIs
  {
    generic: 'venlafaxine',
    brands: ['Effexor', 'Effexor XR'],
    drugClass: 'snri',
    strengths: ['25 mg', '37.5 mg', '50 mg', '75 mg', '100 mg', '150 mg', '225 mg'],
    forms: ['tablet', 'capsule-extended-release', 'tablet-extended-release'],
    controlledSchedule: null,
  },
  {
    generic: 'desvenlafaxine',
    brands: ['Pristiq'],
    drugClass: 'snri',
    strengths: ['25 mg', '50 mg', '100 mg'],
    forms: ['tablet-extended-release'],
    controlledSchedule: null,
  },
  {
    // Delayed-release capsules, filed under 'capsule'.
    generic: 'duloxetine',
    brands: ['Cymbalta', 'Drizalma Sprinkle'],
    drugClass: 'snri',
    strengths: ['20 mg', '30 mg', '40 mg', '60 mg'],
    forms: ['capsule'],
    controlledSchedule: null,
  },
  {
    generic: 'levomilnacipran',
    brands: ['Fetzima'],
    drugClass: 'snri',
    strengths: ['20 mg', '40 mg', '80 mg', '120 mg'],
    forms: ['capsule-extended-release'],
    controlledSchedule: null,
  },
  // Tricyclic antidepressants
  {
    generic: 'amitriptyline',
    brands: ['Elavil'],
    drugClass: 'tca',
    strengths: ['10 mg', '25 mg', '50 mg', '75 mg', '100 mg', '150 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'nortriptyline',
    brands: ['Pamelor'],
    drugClass: 'tca',
    strengths: ['10 mg', '25 mg', '50 mg', '75 mg', '10 mg/5 mL'],
    forms: ['capsule', 'oral-solution'],
    controlledSchedule: null,
  },
  {
    generic: 'clomipramine',
    brands: ['Anafranil'],
    drugClass: 'tca',
    strengths: ['25 mg', '50 mg', '75 mg'],
    forms: ['capsule'],
    controlledSchedule: null,
  },
  {
    generic: 'imipramine',
    brands: ['Tofranil', 'Tofranil-PM'],
    drugClass: 'tca',
    strengths: ['10 mg', '25 mg', '50 mg', '75 mg', '100 mg', '125 mg', '150 mg'],
    forms: ['tablet', 'capsule'],
    controlledSchedule: null,
  },
  {
    // Low-dose doxepin for insomnia (Silenor, 3 and 6 mg) stays here rather than under 'other-hypnotic'.
    generic: 'doxepin',
    brands: ['Sinequan', 'Silenor'],
    drugClass: 'tca',
    strengths: ['3 mg', '6 mg', '10 mg', '25 mg', '50 mg', '75 mg', '100 mg', '150 mg', '10 mg/mL'],
    forms: ['capsule', 'tablet', 'oral-solution'],
    controlledSchedule: null,
  },
  {
    generic: 'desipramine',
    brands: ['Norpramin'],
    drugClass: 'tca',
    strengths: ['10 mg', '25 mg', '50 mg', '75 mg', '100 mg', '150 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  // MAOIs
  {
    generic: 'phenelzine',
    brands: ['Nardil'],
    drugClass: 'maoi',
    strengths: ['15 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'tranylcypromine',
    brands: ['Parnate'],
    drugClass: 'maoi',
    strengths: ['10 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'isocarboxazid',
    brands: ['Marplan'],
    drugClass: 'maoi',
    strengths: ['10 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    // The transdermal system for depression; oral selegiline (for Parkinson's disease) is not listed.
    generic: 'selegiline',
    brands: ['Emsam'],
    drugClass: 'maoi',
    strengths: ['6 mg/24 hours', '9 mg/24 hours', '12 mg/24 hours'],
    forms: ['patch'],
    controlledSchedule: null,
  },
  // Atypical antidepressants
  {
    generic: 'bupropion',
    brands: ['Wellbutrin', 'Wellbutrin SR', 'Wellbutrin XL', 'Zyban'],
    drugClass: 'atypical-antidepressant',
    strengths: ['75 mg', '100 mg', '150 mg', '200 mg', '300 mg', '450 mg'],
    forms: ['tablet', 'tablet-extended-release'],
    controlledSchedule: null,
    serotonergic: false,
    maoiHypertensiveRisk: true,
  },
  {
    generic: 'dextromethorphan and bupropion',
    brands: ['Auvelity'],
    drugClass: 'atypical-antidepressant',
    strengths: ['45 mg/105 mg'],
    forms: ['tablet-extended-release'],
    controlledSchedule: null,
    maoiHypertensiveRisk: true,
  },
  {
    generic: 'mirtazapine',
    brands: ['Remeron', 'RemeronSolTab'],
    drugClass: 'atypical-antidepressant',
    strengths: ['7.5 mg', '15 mg', '30 mg', '45 mg'],
    forms: ['tablet', 'orally-disintegrating-tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'trazodone',
    brands: ['Desyrel'],
    drugClass: 'atypical-antidepressant',
    strengths: ['50 mg', '100 mg', '150 mg', '300 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'nefazodone',
    brands: ['Serzone'],
    drugClass: 'atypical-antidepressant',
    strengths: ['50 mg', '100 mg', '150 mg', '200 mg', '250 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'vilazodone',
    brands: ['Viibryd'],
    drugClass: 'atypical-antidepressant',
    strengths: ['10 mg', '20 mg', '40 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'vortioxetine',
    brands: ['Trintellix'],
    drugClass: 'atypical-antidepressant',
    strengths: ['5 mg', '10 mg', '20 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  // Second-generation antipsychotics
  {
    generic: 'aripiprazole',
    brands: ['Abilify', 'Abilify Maintena', 'Abilify Asimtufii', 'Abilify Mycite'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['2 mg', '5 mg', '10 mg', '15 mg', '20 mg', '30 mg', '1 mg/mL', '300 mg', '400 mg', '720 mg', '960 mg'],
    forms: ['tablet', 'orally-disintegrating-tablet', 'oral-solution', 'long-acting-injection'],
    controlledSchedule: null,
  },
  {
    // A different established name from aripiprazole (a prodrug), so its own entry.
    generic: 'aripiprazole lauroxil',
    brands: ['Aristada', 'Aristada Initio'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['441 mg', '662 mg', '675 mg', '882 mg', '1064 mg'],
    forms: ['long-acting-injection'],
    controlledSchedule: null,
  },
  {
    generic: 'brexpiprazole',
    brands: ['Rexulti'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['0.25 mg', '0.5 mg', '1 mg', '2 mg', '3 mg', '4 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'cariprazine',
    brands: ['Vraylar'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['1.5 mg', '3 mg', '4.5 mg', '6 mg'],
    forms: ['capsule'],
    controlledSchedule: null,
  },
  {
    generic: 'clozapine',
    brands: ['Clozaril', 'FazaClo', 'Versacloz'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['12.5 mg', '25 mg', '50 mg', '100 mg', '150 mg', '200 mg', '50 mg/mL'],
    forms: ['tablet', 'orally-disintegrating-tablet', 'oral-solution'],
    controlledSchedule: null,
  },
  {
    generic: 'lurasidone',
    brands: ['Latuda'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['20 mg', '40 mg', '60 mg', '80 mg', '120 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'olanzapine',
    brands: ['Zyprexa', 'Zyprexa Zydis', 'Zyprexa Relprevv'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['2.5 mg', '5 mg', '7.5 mg', '10 mg', '15 mg', '20 mg', '210 mg', '300 mg', '405 mg'],
    forms: ['tablet', 'orally-disintegrating-tablet', 'injection', 'long-acting-injection'],
    controlledSchedule: null,
  },
  {
    generic: 'olanzapine and samidorphan',
    brands: ['Lybalvi'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['5 mg/10 mg', '10 mg/10 mg', '15 mg/10 mg', '20 mg/10 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    // Oral extended-release tablets and the monthly injection (Invega Sustenna); the 3- and 6-monthly
    // injections (Trinza, Hafyera) are found by brand, their strengths picked by hand.
    generic: 'paliperidone',
    brands: ['Invega', 'Invega Sustenna', 'Invega Trinza', 'Invega Hafyera'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['1.5 mg', '3 mg', '6 mg', '9 mg', '39 mg', '78 mg', '117 mg', '156 mg', '234 mg'],
    forms: ['tablet-extended-release', 'long-acting-injection'],
    controlledSchedule: null,
  },
  {
    generic: 'quetiapine',
    brands: ['Seroquel', 'Seroquel XR'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['25 mg', '50 mg', '100 mg', '150 mg', '200 mg', '300 mg', '400 mg'],
    forms: ['tablet', 'tablet-extended-release'],
    controlledSchedule: null,
  },
  {
    generic: 'risperidone',
    brands: ['Risperdal', 'Risperdal M-Tab', 'Risperdal Consta', 'Perseris', 'Uzedy', 'Rykindo'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['0.25 mg', '0.5 mg', '1 mg', '2 mg', '3 mg', '4 mg', '1 mg/mL', '12.5 mg', '25 mg', '37.5 mg', '50 mg'],
    forms: ['tablet', 'orally-disintegrating-tablet', 'oral-solution', 'long-acting-injection'],
    controlledSchedule: null,
  },
  {
    generic: 'ziprasidone',
    brands: ['Geodon'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['20 mg', '40 mg', '60 mg', '80 mg', '20 mg/mL'],
    forms: ['capsule', 'injection'],
    controlledSchedule: null,
  },
  {
    generic: 'lumateperone',
    brands: ['Caplyta'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['10.5 mg', '21 mg', '42 mg'],
    forms: ['capsule'],
    controlledSchedule: null,
  },
  {
    // Sublingual tablets (Saphris, route 'sublingual') and the patch (Secuado).
    generic: 'asenapine',
    brands: ['Saphris', 'Secuado'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['2.5 mg', '5 mg', '10 mg', '3.8 mg/24 hours', '5.7 mg/24 hours', '7.6 mg/24 hours'],
    forms: ['tablet', 'patch'],
    controlledSchedule: null,
  },
  {
    generic: 'iloperidone',
    brands: ['Fanapt'],
    drugClass: 'antipsychotic-second-generation',
    strengths: ['1 mg', '2 mg', '4 mg', '6 mg', '8 mg', '10 mg', '12 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  // First-generation antipsychotics
  {
    generic: 'haloperidol',
    brands: ['Haldol', 'Haldol Decanoate'],
    drugClass: 'antipsychotic-first-generation',
    strengths: ['0.5 mg', '1 mg', '2 mg', '5 mg', '10 mg', '20 mg', '2 mg/mL', '5 mg/mL', '50 mg/mL', '100 mg/mL'],
    forms: ['tablet', 'oral-solution', 'injection', 'long-acting-injection'],
    controlledSchedule: null,
  },
  {
    generic: 'fluphenazine',
    brands: ['Prolixin'],
    drugClass: 'antipsychotic-first-generation',
    strengths: ['1 mg', '2.5 mg', '5 mg', '10 mg', '2.5 mg/5 mL', '5 mg/mL', '2.5 mg/mL', '25 mg/mL'],
    forms: ['tablet', 'oral-solution', 'injection', 'long-acting-injection'],
    controlledSchedule: null,
  },
  {
    generic: 'perphenazine',
    brands: ['Trilafon'],
    drugClass: 'antipsychotic-first-generation',
    strengths: ['2 mg', '4 mg', '8 mg', '16 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'chlorpromazine',
    brands: ['Thorazine'],
    drugClass: 'antipsychotic-first-generation',
    strengths: ['10 mg', '25 mg', '50 mg', '100 mg', '200 mg', '25 mg/mL'],
    forms: ['tablet', 'injection'],
    controlledSchedule: null,
  },
  {
    // Capsules, and the inhaled powder (Adasuve, form 'other').
    generic: 'loxapine',
    brands: ['Loxitane', 'Adasuve'],
    drugClass: 'antipsychotic-first-generation',
    strengths: ['5 mg', '10 mg', '25 mg', '50 mg'],
    forms: ['capsule', 'other'],
    controlledSchedule: null,
  },
  // Mood stabilizers
  {
    // Lithium carbonate (the oral solution is lithium citrate, 8 mEq/5 mL, typed in by hand). Not serotonergic here:
    // lithium with an MAOI is an accepted augmentation, so it is not flagged (see warnings.ts).
    generic: 'lithium carbonate',
    brands: ['Lithobid', 'Eskalith'],
    drugClass: 'mood-stabilizer',
    strengths: ['150 mg', '300 mg', '450 mg', '600 mg'],
    forms: ['capsule', 'tablet', 'tablet-extended-release'],
    controlledSchedule: null,
  },
  {
    // Delayed-release tablets and sprinkle capsules are filed under 'tablet' and 'capsule'.
    generic: 'divalproex sodium',
    brands: ['Depakote', 'Depakote ER', 'Depakote Sprinkle'],
    drugClass: 'mood-stabilizer',
    strengths: ['125 mg', '250 mg', '500 mg'],
    forms: ['tablet', 'tablet-extended-release', 'capsule'],
    controlledSchedule: null,
  },
  {
    generic: 'valproic acid',
    brands: ['Depakene'],
    drugClass: 'mood-stabilizer',
    strengths: ['250 mg', '250 mg/5 mL'],
    forms: ['capsule', 'oral-solution'],
    controlledSchedule: null,
  },
  {
    generic: 'lamotrigine',
    brands: ['Lamictal', 'Lamictal XR', 'Lamictal ODT'],
    drugClass: 'mood-stabilizer',
    strengths: ['2 mg', '5 mg', '25 mg', '50 mg', '100 mg', '150 mg', '200 mg', '250 mg', '300 mg'],
    forms: ['tablet', 'orally-disintegrating-tablet', 'tablet-extended-release'],
    controlledSchedule: null,
  },
  {
    generic: 'carbamazepine',
    brands: ['Tegretol', 'Tegretol-XR', 'Equetro', 'Carbatrol'],
    drugClass: 'mood-stabilizer',
    strengths: ['100 mg', '200 mg', '300 mg', '400 mg', '100 mg/5 mL'],
    forms: ['tablet', 'tablet-extended-release', 'capsule-extended-release', 'oral-solution'],
    controlledSchedule: null,
  },
  {
    generic: 'oxcarbazepine',
    brands: ['Trileptal', 'Oxtellar XR'],
    drugClass: 'mood-stabilizer',
    strengths: ['150 mg', '300 mg', '600 mg', '300 mg/5 mL'],
    forms: ['tablet', 'tablet-extended-release', 'oral-solution'],
    controlledSchedule: null,
  },
  // Benzodiazepines (schedule IV)
  {
    generic: 'alprazolam',
    brands: ['Xanax', 'Xanax XR'],
    drugClass: 'benzodiazepine',
    strengths: ['0.25 mg', '0.5 mg', '1 mg', '2 mg', '3 mg', '1 mg/mL'],
    forms: ['tablet', 'tablet-extended-release', 'orally-disintegrating-tablet', 'oral-solution'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'clonazepam',
    brands: ['Klonopin'],
    drugClass: 'benzodiazepine',
    strengths: ['0.125 mg', '0.25 mg', '0.5 mg', '1 mg', '2 mg'],
    forms: ['tablet', 'orally-disintegrating-tablet'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'lorazepam',
    brands: ['Ativan', 'Loreev XR'],
    drugClass: 'benzodiazepine',
    strengths: ['0.5 mg', '1 mg', '1.5 mg', '2 mg', '3 mg', '2 mg/mL', '4 mg/mL'],
    forms: ['tablet', 'capsule-extended-release', 'oral-solution', 'injection'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'diazepam',
    brands: ['Valium'],
    drugClass: 'benzodiazepine',
    strengths: ['2 mg', '5 mg', '10 mg', '5 mg/5 mL', '5 mg/mL'],
    forms: ['tablet', 'oral-solution', 'injection'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'chlordiazepoxide',
    brands: ['Librium'],
    drugClass: 'benzodiazepine',
    strengths: ['5 mg', '10 mg', '25 mg'],
    forms: ['capsule'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'oxazepam',
    brands: ['Serax'],
    drugClass: 'benzodiazepine',
    strengths: ['10 mg', '15 mg', '30 mg'],
    forms: ['capsule'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'temazepam',
    brands: ['Restoril'],
    drugClass: 'benzodiazepine',
    strengths: ['7.5 mg', '15 mg', '22.5 mg', '30 mg'],
    forms: ['capsule'],
    controlledSchedule: 'IV',
  },
  // Z-drug hypnotics (schedule IV)
  {
    // Edluar and Intermezzo are sublingual tablets.
    generic: 'zolpidem',
    brands: ['Ambien', 'Ambien CR', 'Edluar', 'Intermezzo'],
    drugClass: 'z-hypnotic',
    strengths: ['1.75 mg', '3.5 mg', '5 mg', '6.25 mg', '10 mg', '12.5 mg'],
    forms: ['tablet', 'tablet-extended-release'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'eszopiclone',
    brands: ['Lunesta'],
    drugClass: 'z-hypnotic',
    strengths: ['1 mg', '2 mg', '3 mg'],
    forms: ['tablet'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'zaleplon',
    brands: ['Sonata'],
    drugClass: 'z-hypnotic',
    strengths: ['5 mg', '10 mg'],
    forms: ['capsule'],
    controlledSchedule: 'IV',
  },
  // Other hypnotics
  {
    generic: 'ramelteon',
    brands: ['Rozerem'],
    drugClass: 'other-hypnotic',
    strengths: ['8 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'suvorexant',
    brands: ['Belsomra'],
    drugClass: 'other-hypnotic',
    strengths: ['5 mg', '10 mg', '15 mg', '20 mg'],
    forms: ['tablet'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'lemborexant',
    brands: ['Dayvigo'],
    drugClass: 'other-hypnotic',
    strengths: ['5 mg', '10 mg'],
    forms: ['tablet'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'daridorexant',
    brands: ['Quviviq'],
    drugClass: 'other-hypnotic',
    strengths: ['25 mg', '50 mg'],
    forms: ['tablet'],
    controlledSchedule: 'IV',
  },
  // Stimulants (schedule II)
  {
    generic: 'methylphenidate',
    brands: [
      'Ritalin',
      'Ritalin LA',
      'Concerta',
      'Methylin',
      'Metadate CD',
      'Aptensio XR',
      'Jornay PM',
      'Quillivant XR',
      'QuilliChew ER',
      'Cotempla XR-ODT',
      'Daytrana',
    ],
    drugClass: 'stimulant',
    strengths: [
      '5 mg',
      '10 mg',
      '18 mg',
      '20 mg',
      '27 mg',
      '30 mg',
      '36 mg',
      '40 mg',
      '54 mg',
      '60 mg',
      '72 mg',
      '5 mg/5 mL',
      '10 mg/5 mL',
      '10 mg/9 hours',
      '15 mg/9 hours',
      '20 mg/9 hours',
      '30 mg/9 hours',
    ],
    forms: [
      'tablet',
      'tablet-extended-release',
      'capsule-extended-release',
      'orally-disintegrating-tablet',
      'oral-solution',
      'patch',
    ],
    controlledSchedule: 'II',
  },
  {
    generic: 'dexmethylphenidate',
    brands: ['Focalin', 'Focalin XR'],
    drugClass: 'stimulant',
    strengths: ['2.5 mg', '5 mg', '10 mg', '15 mg', '20 mg', '25 mg', '30 mg', '35 mg', '40 mg'],
    forms: ['tablet', 'capsule-extended-release'],
    controlledSchedule: 'II',
  },
  {
    // Mixed amphetamine salts.
    generic: 'dextroamphetamine and amphetamine',
    brands: ['Adderall', 'Adderall XR', 'Mydayis'],
    drugClass: 'stimulant',
    strengths: ['5 mg', '7.5 mg', '10 mg', '12.5 mg', '15 mg', '20 mg', '25 mg', '30 mg', '37.5 mg', '50 mg'],
    forms: ['tablet', 'capsule-extended-release'],
    controlledSchedule: 'II',
  },
  {
    // Capsules and chewable tablets (filed under 'tablet').
    generic: 'lisdexamfetamine',
    brands: ['Vyvanse'],
    drugClass: 'stimulant',
    strengths: ['10 mg', '20 mg', '30 mg', '40 mg', '50 mg', '60 mg', '70 mg'],
    forms: ['capsule', 'tablet'],
    controlledSchedule: 'II',
  },
  {
    generic: 'dextroamphetamine',
    brands: ['Dexedrine', 'Zenzedi', 'ProCentra'],
    drugClass: 'stimulant',
    strengths: ['2.5 mg', '5 mg', '7.5 mg', '10 mg', '15 mg', '20 mg', '30 mg', '5 mg/5 mL'],
    forms: ['tablet', 'capsule-extended-release', 'oral-solution'],
    controlledSchedule: 'II',
  },
  // Wakefulness-promoting agents (schedule IV), filed under 'other' rather than 'stimulant': they are not amphetamine-
  // like stimulants, and their labels ask for caution with MAOIs rather than contraindicating them, so the MAOI-
  // stimulant rule and the duplicate-stimulant warning would overstate them.
  {
    generic: 'modafinil',
    brands: ['Provigil'],
    drugClass: 'other',
    strengths: ['100 mg', '200 mg'],
    forms: ['tablet'],
    controlledSchedule: 'IV',
  },
  {
    generic: 'armodafinil',
    brands: ['Nuvigil'],
    drugClass: 'other',
    strengths: ['50 mg', '150 mg', '200 mg', '250 mg'],
    forms: ['tablet'],
    controlledSchedule: 'IV',
  },
  // ADHD non-stimulants
  {
    generic: 'atomoxetine',
    brands: ['Strattera'],
    drugClass: 'adhd-non-stimulant',
    strengths: ['10 mg', '18 mg', '25 mg', '40 mg', '60 mg', '80 mg', '100 mg'],
    forms: ['capsule'],
    controlledSchedule: null,
    maoiHypertensiveRisk: true,
  },
  {
    generic: 'viloxazine',
    brands: ['Qelbree'],
    drugClass: 'adhd-non-stimulant',
    strengths: ['100 mg', '150 mg', '200 mg'],
    forms: ['capsule-extended-release'],
    controlledSchedule: null,
    maoiHypertensiveRisk: true,
  },
  {
    // Extended-release for ADHD (Intuniv); the immediate-release tablet (Tenex) is an antihypertensive used off-label.
    generic: 'guanfacine',
    brands: ['Intuniv', 'Tenex'],
    drugClass: 'adhd-non-stimulant',
    strengths: ['1 mg', '2 mg', '3 mg', '4 mg'],
    forms: ['tablet-extended-release', 'tablet'],
    controlledSchedule: null,
  },
  {
    // Extended-release for ADHD (Kapvay); immediate-release (Catapres) is also used, e.g. in opioid withdrawal.
    generic: 'clonidine',
    brands: ['Kapvay', 'Catapres'],
    drugClass: 'adhd-non-stimulant',
    strengths: ['0.1 mg', '0.2 mg', '0.3 mg'],
    forms: ['tablet-extended-release', 'tablet'],
    controlledSchedule: null,
  },
  // Other
  {
    generic: 'prazosin',
    brands: ['Minipress'],
    drugClass: 'other',
    strengths: ['1 mg', '2 mg', '5 mg'],
    forms: ['capsule'],
    controlledSchedule: null,
  },
  {
    // Not federally controlled; several states schedule it (V) or monitor it.
    generic: 'gabapentin',
    brands: ['Neurontin', 'Gralise'],
    drugClass: 'other',
    strengths: ['100 mg', '300 mg', '400 mg', '600 mg', '800 mg', '250 mg/5 mL'],
    forms: ['capsule', 'tablet', 'oral-solution'],
    controlledSchedule: null,
  },
  {
    generic: 'pregabalin',
    brands: ['Lyrica', 'Lyrica CR'],
    drugClass: 'other',
    strengths: [
      '25 mg',
      '50 mg',
      '75 mg',
      '82.5 mg',
      '100 mg',
      '150 mg',
      '165 mg',
      '200 mg',
      '225 mg',
      '300 mg',
      '330 mg',
      '20 mg/mL',
    ],
    forms: ['capsule', 'tablet-extended-release', 'oral-solution'],
    controlledSchedule: 'V',
  },
  {
    // A neuroactive steroid for postpartum depression; schedule IV.
    generic: 'zuranolone',
    brands: ['Zurzuvae'],
    drugClass: 'other',
    strengths: ['20 mg', '25 mg', '30 mg'],
    forms: ['capsule'],
    controlledSchedule: 'IV',
  },
  // Other anxiolytics
  {
    // Serotonergic (5-HT1A partial agonist); its label warns of raised blood pressure with an MAOI.
    generic: 'buspirone',
    brands: ['Buspar'],
    drugClass: 'anxiolytic-other',
    strengths: ['5 mg', '7.5 mg', '10 mg', '15 mg', '30 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
    serotonergic: true,
  },
  {
    // Hydrochloride tablets and syrup (Atarax), pamoate capsules (Vistaril).
    generic: 'hydroxyzine',
    brands: ['Vistaril', 'Atarax'],
    drugClass: 'anxiolytic-other',
    strengths: ['10 mg', '25 mg', '50 mg', '100 mg', '10 mg/5 mL'],
    forms: ['tablet', 'capsule', 'oral-solution'],
    controlledSchedule: null,
  },
  // Beta blocker
  {
    generic: 'propranolol',
    brands: ['Inderal LA', 'InnoPran XL'],
    drugClass: 'beta-blocker',
    strengths: ['10 mg', '20 mg', '40 mg', '60 mg', '80 mg', '120 mg', '160 mg', '20 mg/5 mL', '40 mg/5 mL'],
    forms: ['tablet', 'capsule-extended-release', 'oral-solution'],
    controlledSchedule: null,
  },
  // Anticholinergics
  {
    generic: 'benztropine',
    brands: ['Cogentin'],
    drugClass: 'anticholinergic',
    strengths: ['0.5 mg', '1 mg', '2 mg', '1 mg/mL'],
    forms: ['tablet', 'injection'],
    controlledSchedule: null,
  },
  {
    generic: 'trihexyphenidyl',
    brands: ['Artane'],
    drugClass: 'anticholinergic',
    strengths: ['2 mg', '5 mg', '2 mg/5 mL'],
    forms: ['tablet', 'oral-solution'],
    controlledSchedule: null,
  },
  // Substance use disorders
  {
    generic: 'naltrexone',
    brands: ['Revia', 'Vivitrol'],
    drugClass: 'opioid-antagonist',
    strengths: ['50 mg', '380 mg'],
    forms: ['tablet', 'long-acting-injection'],
    controlledSchedule: null,
  },
  {
    // Sublingual tablets, and the extended-release injections (Sublocade monthly; Brixadi weekly and monthly).
    generic: 'buprenorphine',
    brands: ['Subutex', 'Sublocade', 'Brixadi'],
    drugClass: 'opioid-agonist',
    strengths: ['2 mg', '8 mg', '16 mg', '24 mg', '32 mg', '64 mg', '96 mg', '100 mg', '128 mg', '300 mg'],
    forms: ['tablet', 'long-acting-injection'],
    controlledSchedule: 'III',
  },
  {
    // Sublingual film (Suboxone) and sublingual tablets (generic, Zubsolv's own strengths picked by hand).
    generic: 'buprenorphine and naloxone',
    brands: ['Suboxone', 'Zubsolv'],
    drugClass: 'opioid-agonist',
    strengths: ['2 mg/0.5 mg', '4 mg/1 mg', '8 mg/2 mg', '12 mg/3 mg'],
    forms: ['film', 'tablet'],
    controlledSchedule: 'III',
  },
  {
    // Serotonergic: its label warns of serotonin syndrome and of MAOIs.
    generic: 'methadone',
    brands: ['Dolophine', 'Methadose'],
    drugClass: 'opioid-agonist',
    strengths: ['5 mg', '10 mg', '40 mg', '5 mg/5 mL', '10 mg/5 mL', '10 mg/mL'],
    forms: ['tablet', 'oral-solution'],
    controlledSchedule: 'II',
    serotonergic: true,
  },
  {
    // Delayed-release tablets, filed under 'tablet'.
    generic: 'acamprosate',
    brands: ['Campral'],
    drugClass: 'alcohol-use-disorder',
    strengths: ['333 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  {
    generic: 'disulfiram',
    brands: ['Antabuse'],
    drugClass: 'alcohol-use-disorder',
    strengths: ['250 mg', '500 mg'],
    forms: ['tablet'],
    controlledSchedule: null,
  },
  // NMDA receptor antagonist
  {
    // One device delivers 28 mg (two sprays); a dose is 56 or 84 mg, given under supervision (REMS).
    generic: 'esketamine',
    brands: ['Spravato'],
    drugClass: 'nmda-antagonist',
    strengths: ['28 mg'],
    forms: ['nasal-spray'],
    controlledSchedule: 'III',
  },
];

const normalize = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** Every generic and brand name (normalized) with its drug; catalogue.test.ts checks that no name has two. */
const BY_NAME: ReadonlyMap<string, CatalogueDrug> = new Map(
  MEDICATION_CATALOGUE.flatMap((drug) => [drug.generic, ...drug.brands].map((name) => [normalize(name), drug])),
);

/** The catalogue drug of a generic or brand name (case and spacing ignored), or null. */
export function findCatalogueDrug(generic: string): CatalogueDrug | null {
  return BY_NAME.get(normalize(generic)) ?? null;
}

/** The words of a name, for word-prefix matching: "Wellbutrin XL" → wellbutrin, xl; "Tegretol-XR" → tegretol, xr. */
const wordsOf = (name: string) => normalize(name).split(/[\s\-/]+/);

/**
 * How well a drug matches a query, lower is better, or null: an exact generic or brand name; a generic that starts
 * with the query; a brand that does; then a later word of a generic or of a brand that does ("amphetamine" finds
 * 'dextroamphetamine and amphetamine', "xr" finds Adderall XR).
 */
function matchRank(drug: CatalogueDrug, query: string): number | null {
  const generic = normalize(drug.generic);
  const brands = drug.brands.map(normalize);
  if (generic === query || brands.includes(query)) return 0;
  if (generic.startsWith(query)) return 1;
  if (brands.some((brand) => brand.startsWith(query))) return 2;
  if (wordsOf(generic).some((word) => word.startsWith(query))) return 3;
  if (brands.some((brand) => wordsOf(brand).some((word) => word.startsWith(query)))) return 4;
  return null;
}

/**
 * Catalogue drugs whose generic or brand name, or a word of it, starts with the query (case ignored): exact names
 * first, then generic prefixes, brand prefixes, and word matches, each group by generic name. An empty query
 * finds nothing.
 */
export function searchMedications(query: string, limit = 15): CatalogueDrug[] {
  const wanted = normalize(query);
  if (!wanted || limit < 1) return [];
  return MEDICATION_CATALOGUE.flatMap((drug) => {
    const rank = matchRank(drug, wanted);
    return rank === null ? [] : [{ drug, rank }];
  })
    .sort((a, b) => a.rank - b.rank || a.drug.generic.localeCompare(b.drug.generic, 'en'))
    .slice(0, Math.floor(limit))
    .map((match) => match.drug);
}
