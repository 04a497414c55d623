import type { FeeItemRow } from './fee-schedule.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

const FeeScheduleItemRef = builder.objectRef<FeeItemRow>('FeeScheduleItem').implement({
  description: "A service of the practice's fee schedule: its code, the practice's short name, its fee in cents.",
  fields: (t) => ({
    id: t.exposeID('id'),
    code: t.exposeString('code', { description: 'A CPT or HCPCS code.' }),
    shortName: t.exposeString('shortName', { description: "The practice's own name (not the AMA's description)." }),
    feeCents: t.exposeInt('feeCents'),
    addOn: t.exposeBoolean('addOn', { description: 'Billed only with a primary service on the same visit.' }),
    active: t.exposeBoolean('active', { description: 'False: no longer offered (never deleted).' }),
    example: t.exposeBoolean('example', { description: 'A starting row the practice has not reviewed yet.' }),
  }),
});

const FeeScheduleItemInput = builder.inputType('FeeScheduleItemInput', {
  fields: (t) => ({
    id: t.id({ description: 'Absent to add a service; its id to change it.' }),
    code: t.string({ required: true }),
    shortName: t.string({ required: true }),
    feeCents: t.int({ required: true }),
    addOn: t.boolean({ required: true }),
    active: t.boolean({ required: true }),
  }),
});

/** The arguments as plain data (GraphQL's input objects have no prototype). */
const plain = (input: object): unknown => JSON.parse(JSON.stringify(input));

builder.queryFields((t) => ({
  feeSchedule: t.field({
    type: [FeeScheduleItemRef],
    description: "The practice's fee schedule, active and inactive services, by code.",
    resolve: (_root, _args, ctx) => ctx.feeSchedule.list(callerOf(ctx, 'feeSchedule')),
  }),
}));

builder.mutationFields((t) => ({
  saveFeeScheduleItem: t.field({
    type: FeeScheduleItemRef,
    description: 'Adds a service to the fee schedule, or changes one (administrators).',
    args: { input: t.arg({ type: FeeScheduleItemInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.feeSchedule.save(callerOf(ctx, 'saveFeeScheduleItem'), plain(args.input)),
  }),
}));
