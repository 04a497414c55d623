import { describe, expect, it } from 'vitest';
import { findCatalogueDrug, MEDICATION_CATALOGUE, searchMedications } from './catalogue.ts';
import type { ControlledSchedule, DrugClass } from './drug-classes.ts';
import { CONTROLLED_SCHEDULES, DRUG_CLASSES } from './drug-classes.ts';
import { MEDICATION_FORMS } from './sig.ts';

// A number with a leading zero and no trailing zeros, then a unit; a second part for a concentration, a
// combination or a patch's rate ('20 mg/mL', '2 mg/0.5 mg', '6 mg/24 hours').
const NUMBER = String.raw`(0|[1-9]\d*)(\.\d*[1-9])?`;
const STRENGTH = new RegExp(`^${NUMBER} (mg|mcg)(/(${NUMBER} )?(mg|mL|hours))?$`);

describe('the catalogue', () => {
  it('has one entry per generic, each in lower case and trimmed', () => {
    const generics = MEDICATION_CATALOGUE.map((drug) => drug.generic);
    expect(new Set(generics).size).toBe(generics.length);
    for (const generic of generics) expect(generic).toBe(generic.trim().toLowerCase());
  });

  it('gives no name (generic or brand) to two drugs', () => {
    const names = MEDICATION_CATALOGUE.flatMap((drug) => [drug.generic, ...drug.brands].map((n) => n.toLowerCase()));
    expect(new Set(names).size).toBe(names.length);
  });

  it('uses only known classes, forms and schedules, and well-written strengths', () => {
    for (const drug of MEDICATION_CATALOGUE) {
      expect(DRUG_CLASSES).toContain(drug.drugClass);
      expect(drug.forms.length).toBeGreaterThan(0);
      for (const form of drug.forms) expect(MEDICATION_FORMS).toContain(form);
      if (drug.controlledSchedule !== null) expect(CONTROLLED_SCHEDULES).toContain(drug.controlledSchedule);
      expect(drug.strengths.length).toBeGreaterThan(0);
      expect(new Set(drug.strengths).size).toBe(drug.strengths.length);
      for (const strength of drug.strengths) expect(strength, `${drug.generic} ${strength}`).toMatch(STRENGTH);
    }
  });

  it('has about 80 drugs and at least one of every class', () => {
    expect(MEDICATION_CATALOGUE.length).toBeGreaterThanOrEqual(80);
    const used = new Set(MEDICATION_CATALOGUE.map((drug) => drug.drugClass));
    for (const drugClass of DRUG_CLASSES) expect(used, drugClass).toContain(drugClass);
  });

  // The drugs the practice asked for, with their class.
  const REQUIRED: [string, DrugClass][] = [
    ...(['citalopram', 'escitalopram', 'fluoxetine', 'fluvoxamine', 'paroxetine', 'sertraline'] as const).map(
      (g): [string, DrugClass] => [g, 'ssri'],
    ),
    ...(['venlafaxine', 'desvenlafaxine', 'duloxetine', 'levomilnacipran'] as const).map((g): [string, DrugClass] => [
      g,
      'snri',
    ]),
    ...(['amitriptyline', 'nortriptyline', 'clomipramine', 'imipramine', 'doxepin', 'desipramine'] as const).map(
      (g): [string, DrugClass] => [g, 'tca'],
    ),
    ...(['phenelzine', 'tranylcypromine', 'isocarboxazid', 'selegiline'] as const).map((g): [string, DrugClass] => [
      g,
      'maoi',
    ]),
    ...(['bupropion', 'mirtazapine', 'trazodone', 'nefazodone', 'vilazodone', 'vortioxetine'] as const).map(
      (g): [string, DrugClass] => [g, 'atypical-antidepressant'],
    ),
    ...(
      [
        'aripiprazole',
        'brexpiprazole',
        'cariprazine',
        'clozapine',
        'lurasidone',
        'olanzapine',
        'paliperidone',
        'quetiapine',
        'risperidone',
        'ziprasidone',
        'lumateperone',
        'asenapine',
        'iloperidone',
        'olanzapine and samidorphan',
      ] as const
    ).map((g): [string, DrugClass] => [g, 'antipsychotic-second-generation']),
    ...(['haloperidol', 'fluphenazine', 'perphenazine', 'chlorpromazine', 'loxapine'] as const).map(
      (g): [string, DrugClass] => [g, 'antipsychotic-first-generation'],
    ),
    ...(['lithium carbonate', 'divalproex sodium', 'lamotrigine', 'carbamazepine', 'oxcarbazepine'] as const).map(
      (g): [string, DrugClass] => [g, 'mood-stabilizer'],
    ),
    ...(['alprazolam', 'clonazepam', 'lorazepam', 'diazepam', 'chlordiazepoxide', 'temazepam'] as const).map(
      (g): [string, DrugClass] => [g, 'benzodiazepine'],
    ),
    ...(['zolpidem', 'eszopiclone', 'zaleplon'] as const).map((g): [string, DrugClass] => [g, 'z-hypnotic']),
    ...(['ramelteon', 'suvorexant', 'lemborexant'] as const).map((g): [string, DrugClass] => [g, 'other-hypnotic']),
    ...(
      [
        'methylphenidate',
        'dexmethylphenidate',
        'dextroamphetamine and amphetamine',
        'lisdexamfetamine',
        'dextroamphetamine',
      ] as const
    ).map((g): [string, DrugClass] => [g, 'stimulant']),
    ...(['atomoxetine', 'viloxazine', 'guanfacine', 'clonidine'] as const).map((g): [string, DrugClass] => [
      g,
      'adhd-non-stimulant',
    ]),
    ['prazosin', 'other'],
    ['gabapentin', 'other'],
    ['pregabalin', 'other'],
    ['modafinil', 'other'],
    ['buspirone', 'anxiolytic-other'],
    ['hydroxyzine', 'anxiolytic-other'],
    ['propranolol', 'beta-blocker'],
    ['benztropine', 'anticholinergic'],
    ['naltrexone', 'opioid-antagonist'],
    ['buprenorphine', 'opioid-agonist'],
    ['buprenorphine and naloxone', 'opioid-agonist'],
    ['methadone', 'opioid-agonist'],
    ['acamprosate', 'alcohol-use-disorder'],
    ['disulfiram', 'alcohol-use-disorder'],
    ['esketamine', 'nmda-antagonist'],
  ];

  it.each(REQUIRED)('lists %s as %s', (generic, drugClass) => {
    expect(findCatalogueDrug(generic)?.drugClass).toBe(drugClass);
  });

  const SCHEDULES: [string, ControlledSchedule | null][] = [
    ['alprazolam', 'IV'],
    ['clonazepam', 'IV'],
    ['zolpidem', 'IV'],
    ['suvorexant', 'IV'],
    ['lemborexant', 'IV'],
    ['modafinil', 'IV'],
    ['methylphenidate', 'II'],
    ['lisdexamfetamine', 'II'],
    ['dextroamphetamine and amphetamine', 'II'],
    ['methadone', 'II'],
    ['buprenorphine', 'III'],
    ['buprenorphine and naloxone', 'III'],
    ['esketamine', 'III'],
    ['pregabalin', 'V'],
    ['gabapentin', null],
    ['sertraline', null],
    ['atomoxetine', null],
    ['naltrexone', null],
  ];

  it.each(SCHEDULES)('schedules %s as %s', (generic, schedule) => {
    expect(findCatalogueDrug(generic)?.controlledSchedule).toBe(schedule);
  });

  it('schedules every benzodiazepine, Z-drug and stimulant', () => {
    const expected: Partial<Record<DrugClass, ControlledSchedule>> = {
      benzodiazepine: 'IV',
      'z-hypnotic': 'IV',
      stimulant: 'II',
    };
    for (const drug of MEDICATION_CATALOGUE) {
      const schedule = expected[drug.drugClass];
      if (schedule) expect(drug.controlledSchedule, drug.generic).toBe(schedule);
    }
  });
});

describe('findCatalogueDrug', () => {
  it('finds a generic or a brand, case and spacing ignored', () => {
    expect(findCatalogueDrug('Sertraline')?.generic).toBe('sertraline');
    expect(findCatalogueDrug('  ZOLOFT ')?.generic).toBe('sertraline');
    expect(findCatalogueDrug('wellbutrin  xl')?.generic).toBe('bupropion');
    expect(findCatalogueDrug('Divalproex Sodium')?.generic).toBe('divalproex sodium');
  });

  it('needs the whole name', () => {
    expect(findCatalogueDrug('sert')).toBeNull();
    expect(findCatalogueDrug('')).toBeNull();
    expect(findCatalogueDrug('St. John’s wort')).toBeNull();
  });
});

describe('searchMedications', () => {
  const generics = (query: string, limit?: number) => searchMedications(query, limit).map((drug) => drug.generic);

  it('finds a drug by its brand', () => {
    expect(generics('zoloft')).toEqual(['sertraline']);
    expect(generics('Adderall')).toEqual(['dextroamphetamine and amphetamine']);
  });

  it('puts generic prefixes before brand prefixes, each by name', () => {
    // zolpidem starts with "zol"; Zoloft is sertraline's brand.
    expect(generics('zol')).toEqual(['zolpidem', 'sertraline']);
    // Aristada's brand prefix does not list aripiprazole lauroxil a second time.
    expect(generics('ari')).toEqual(['aripiprazole', 'aripiprazole lauroxil']);
    expect(generics('lu')).toEqual(['lumateperone', 'lurasidone', 'eszopiclone', 'fluvoxamine']); // Lunesta, Luvox
  });

  it('puts an exact name first', () => {
    expect(generics('lorazepam')[0]).toBe('lorazepam');
    expect(generics('olanzapine')).toEqual(['olanzapine', 'olanzapine and samidorphan']);
  });

  it('matches a later word of a generic or a brand after the prefixes', () => {
    expect(generics('amphetamine')).toEqual(['dextroamphetamine and amphetamine']);
    expect(generics('naloxone')).toEqual(['buprenorphine and naloxone']);
    expect(generics('sodium')).toEqual(['divalproex sodium']);
    expect(generics('maintena')).toEqual(['aripiprazole']);
  });

  it('keeps to the limit and finds nothing for an empty query', () => {
    expect(generics('c', 3)).toHaveLength(3);
    expect(generics('c').length).toBeLessThanOrEqual(15);
    expect(generics('c', 0)).toEqual([]);
    expect(generics('   ')).toEqual([]);
    expect(generics('xyzzy')).toEqual([]);
  });
});
