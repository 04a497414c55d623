import { describe, expect, it } from 'vitest';
import { findCatalogueDrug } from './catalogue.ts';
import type { DrugClass } from './drug-classes.ts';
import type { ActiveMedication, CombinationRule, MedicationWarning } from './warnings.ts';
import {
  COMBINATION_RULE_LABELS,
  COMBINATION_RULES,
  MEDICATION_WARNINGS_SCOPE,
  medicationWarnings,
  sameClassWarningText,
} from './warnings.ts';

/** Active medications from catalogue generics, with their catalogue class; ids m1, m2, ... in order. */
function activeList(...generics: string[]): ActiveMedication[] {
  return generics.map((generic, index) => {
    const drug = findCatalogueDrug(generic);
    if (!drug) throw new Error(`${generic} is not in the catalogue`);
    return { id: `m${index + 1}`, generic, drugClass: drug.drugClass };
  });
}

const rulesOf = (warnings: MedicationWarning[]) =>
  warnings.flatMap((warning) => (warning.kind === 'dangerous-combination' ? [warning.rule] : []));
const sameClassesOf = (warnings: MedicationWarning[]) =>
  warnings.flatMap((warning) => (warning.kind === 'same-class' ? [warning.drugClass] : []));

describe('medicationWarnings: same class', () => {
  it('warns of two drugs of one class, naming both', () => {
    expect(medicationWarnings(activeList('sertraline', 'escitalopram'))).toEqual([
      { kind: 'same-class', drugClass: 'ssri', ids: ['m1', 'm2'] },
    ]);
  });

  it('does not warn of two rows of one drug (a dose made of two strengths)', () => {
    expect(medicationWarnings(activeList('quetiapine', 'Seroquel'))).toEqual([]);
  });

  it('never warns for "other" or no class', () => {
    expect(medicationWarnings(activeList('prazosin', 'gabapentin', 'pregabalin'))).toEqual([]);
    expect(
      medicationWarnings([
        { id: 'a', generic: 'fish oil', drugClass: null },
        { id: 'b', generic: 'melatonin', drugClass: null },
      ]),
    ).toEqual([]);
  });

  it('screens a typed-in drug by the class chosen for it', () => {
    expect(
      medicationWarnings([
        { id: 'a', generic: 'sertraline', drugClass: 'ssri' },
        { id: 'b', generic: 'paroxetine mesylate', drugClass: 'ssri' },
      ]),
    ).toEqual([{ kind: 'same-class', drugClass: 'ssri', ids: ['a', 'b'] }]);
  });
});

describe('medicationWarnings: dangerous combinations', () => {
  const FIRES: [CombinationRule, string[]][] = [
    ['maoi-serotonergic', ['phenelzine', 'sertraline']],
    ['maoi-serotonergic', ['tranylcypromine', 'venlafaxine']],
    ['maoi-serotonergic', ['selegiline', 'clomipramine']],
    ['maoi-serotonergic', ['isocarboxazid', 'trazodone']],
    ['maoi-serotonergic', ['phenelzine', 'mirtazapine']],
    ['maoi-serotonergic', ['phenelzine', 'vortioxetine']],
    ['maoi-serotonergic', ['phenelzine', 'buspirone']],
    ['maoi-serotonergic', ['phenelzine', 'methadone']],
    ['maoi-noradrenergic', ['phenelzine', 'bupropion']],
    ['maoi-noradrenergic', ['tranylcypromine', 'atomoxetine']],
    ['maoi-stimulant', ['phenelzine', 'lisdexamfetamine']],
    ['maoi-stimulant', ['selegiline', 'methylphenidate']],
    ['benzodiazepine-opioid', ['clonazepam', 'buprenorphine']],
    ['benzodiazepine-opioid', ['zolpidem', 'methadone']],
    ['benzodiazepine-opioid', ['buprenorphine and naloxone', 'alprazolam']],
    ['benzodiazepine-z-hypnotic', ['lorazepam', 'eszopiclone']],
  ];

  it.each(FIRES)('%s fires for %j', (rule, generics) => {
    expect(rulesOf(medicationWarnings(activeList(...generics)))).toContain(rule);
  });

  const QUIET: [string, string[]][] = [
    ['an SSRI with bupropion', ['sertraline', 'bupropion']],
    ['an SSRI with a stimulant', ['escitalopram', 'dextroamphetamine and amphetamine']],
    ['an MAOI with lithium (an accepted augmentation)', ['phenelzine', 'lithium carbonate']],
    ['an MAOI with a benzodiazepine', ['phenelzine', 'clonazepam']],
    ['an opioid antagonist with a benzodiazepine', ['naltrexone', 'lorazepam']],
    ['buprenorphine with a non-benzodiazepine hypnotic', ['buprenorphine', 'suvorexant']],
    ['an antipsychotic with a mood stabilizer', ['quetiapine', 'lamotrigine']],
  ];

  it.each(QUIET)('nothing for %s', (_case, generics) => {
    expect(medicationWarnings(activeList(...generics))).toEqual([]);
  });

  it('names every drug on either side of a rule, in the order given', () => {
    const warnings = medicationWarnings(activeList('sertraline', 'lithium carbonate', 'phenelzine', 'venlafaxine'));
    expect(warnings).toEqual([{ kind: 'dangerous-combination', rule: 'maoi-serotonergic', ids: ['m1', 'm3', 'm4'] }]);
  });

  it('gives same-class warnings first, each group in its list order', () => {
    const list = ['buprenorphine', 'zolpidem', 'clonazepam', 'alprazolam', 'sertraline', 'fluoxetine', 'eszopiclone'];
    const warnings = medicationWarnings(activeList(...list));
    expect(sameClassesOf(warnings)).toEqual(['ssri', 'benzodiazepine', 'z-hypnotic']);
    expect(rulesOf(warnings)).toEqual(['benzodiazepine-opioid', 'benzodiazepine-z-hypnotic']);
    expect(warnings.at(-2)).toEqual({
      kind: 'dangerous-combination',
      rule: 'benzodiazepine-opioid',
      ids: ['m1', 'm2', 'm3', 'm4', 'm7'],
    });
    // The same list reversed gives the same warnings in the same order, each naming its ids in the new order.
    const reversed = medicationWarnings([...activeList(...list)].reverse());
    expect(reversed.map((warning) => ({ ...warning, ids: [...warning.ids].reverse() }))).toEqual(warnings);
  });

  it('finds the class of a catalogue drug given none, and the drug’s own flags whatever class was chosen', () => {
    expect(
      rulesOf(
        medicationWarnings([
          { id: 'a', generic: 'Nardil', drugClass: null },
          { id: 'b', generic: 'Zoloft', drugClass: 'other' },
        ]),
      ),
    ).toEqual(['maoi-serotonergic']);
  });

  it('screens a typed-in drug by its class’s default', () => {
    const typedIn = (drugClass: DrugClass): ActiveMedication[] => [
      { id: 'a', generic: 'phenelzine', drugClass: 'maoi' },
      { id: 'b', generic: 'some new antidepressant', drugClass },
    ];
    expect(rulesOf(medicationWarnings(typedIn('atypical-antidepressant')))).toEqual(['maoi-serotonergic']);
    expect(rulesOf(medicationWarnings(typedIn('mood-stabilizer')))).toEqual([]);
  });

  it('counts an id given twice once', () => {
    const [sertraline] = activeList('sertraline');
    expect(medicationWarnings([sertraline!, sertraline!])).toEqual([]);
  });
});

describe('the warnings’ texts', () => {
  it('explain every rule in both languages', () => {
    expect(Object.keys(COMBINATION_RULE_LABELS).sort()).toEqual([...COMBINATION_RULES].sort());
    for (const label of Object.values(COMBINATION_RULE_LABELS)) {
      expect(label.en).not.toBe('');
      expect(label.es).not.toBe('');
    }
    expect(MEDICATION_WARNINGS_SCOPE.en).toContain('not a drug-interaction database');
  });

  it('fill the class into the same-class text', () => {
    expect(sameClassWarningText('ssri', 'en')).toBe(
      'Two or more active medications of one class: SSRI. Check that this is intended.',
    );
    expect(sameClassWarningText('benzodiazepine', 'es')).toBe(
      'Dos o más medicamentos activos de la misma clase: Benzodiazepina. Compruebe que sea intencional.',
    );
  });
});
