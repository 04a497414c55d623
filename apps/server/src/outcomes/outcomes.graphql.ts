import type { OutcomeGroup, PracticeOutcomes } from './outcomes.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

// Response and remission rates of measurement-based care (decision 064): administrators, and each provider for
// their own patients.

const PracticeOutcomesInput = builder.inputType('PracticeOutcomesInput', {
  fields: (t) => ({
    startDate: t.string({ required: true, description: 'The first day of the period, YYYY-MM-DD (practice dates).' }),
    endDate: t.string({ required: true, description: 'The last day of the period (included).' }),
    instrument: t.string({ required: true, description: 'phq9 or gad7' }),
    providerId: t.id({
      description: 'Administrators: only this provider’s patients. A provider may name only themselves.',
    }),
  }),
});

const groupFields = {
  patients: 'The patients counted: a clinically significant baseline and a follow-up in the period.',
  responders: 'Of them, those whose follow-up is at most half their baseline.',
  remitters: 'Of them, those whose follow-up is below the remission cut-off.',
} as const;

const OutcomeGroupRef = builder.objectRef<OutcomeGroup>('OutcomeGroup').implement({
  description: 'The figures of one group of patients. A group of fewer than 5 is too few to read: no rates.',
  fields: (t) => ({
    key: t.exposeString('key', {
      nullable: true,
      description:
        'The provider’s id, the ICD-10-CM code or the drug class (`unclassified`: a medication without one); null: none.',
    }),
    label: t.exposeString('label', {
      nullable: true,
      description: 'The provider’s name or the code’s official title; null for a drug class.',
    }),
    patients: t.exposeInt('patients', { description: groupFields.patients }),
    responders: t.exposeInt('responders', { description: groupFields.responders }),
    remitters: t.exposeInt('remitters', { description: groupFields.remitters }),
    responseRate: t.exposeFloat('responseRate', { nullable: true, description: 'responders / patients, 0 to 1' }),
    remissionRate: t.exposeFloat('remissionRate', { nullable: true, description: 'remitters / patients, 0 to 1' }),
    tooFew: t.exposeBoolean('tooFew'),
  }),
});

const PracticeOutcomesRef = builder.objectRef<PracticeOutcomes>('PracticeOutcomes').implement({
  description: 'Response and remission of one instrument over a period, in aggregate (no patient named).',
  fields: (t) => ({
    instrument: t.exposeString('instrument'),
    periodStart: t.exposeString('periodStart'),
    periodEnd: t.exposeString('periodEnd'),
    patients: t.exposeInt('patients', { description: groupFields.patients }),
    responders: t.exposeInt('responders', { description: groupFields.responders }),
    remitters: t.exposeInt('remitters', { description: groupFields.remitters }),
    responseRate: t.exposeFloat('responseRate', { nullable: true }),
    remissionRate: t.exposeFloat('remissionRate', { nullable: true }),
    tooFew: t.exposeBoolean('tooFew'),
    byProvider: t.field({ type: [OutcomeGroupRef], resolve: (o) => o.byProvider }),
    byDiagnosis: t.field({ type: [OutcomeGroupRef], resolve: (o) => o.byDiagnosis }),
    byMedicationClass: t.field({
      type: [OutcomeGroupRef],
      description: 'A patient is in each class started from 90 days before their baseline to their follow-up.',
      resolve: (o) => o.byMedicationClass,
    }),
  }),
});

builder.queryField('practiceOutcomes', (t) =>
  t.field({
    type: PracticeOutcomesRef,
    description:
      'Response and remission rates of a period: administrators for the practice, a provider for their own patients. Audited (PRACTICE_OUTCOMES_VIEW).',
    args: { input: t.arg({ type: PracticeOutcomesInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.outcomes.practiceOutcomes(callerOf(ctx, 'practiceOutcomes'), args.input),
  }),
);
