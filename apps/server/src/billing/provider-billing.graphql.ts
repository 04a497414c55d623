import type { ProviderBillingRow } from './provider-billing.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

const ProviderBillingRef = builder.objectRef<ProviderBillingRow>('ProviderBilling').implement({
  description: "A provider's billing identity: what a superbill prints beside the practice's. Null until filled.",
  fields: (t) => ({
    providerId: t.exposeID('providerId'),
    npi: t.exposeString('npi', { nullable: true }),
    taxonomyCode: t.exposeString('taxonomyCode', { nullable: true, description: 'Such as 2084P0800X.' }),
    licenseState: t.exposeString('licenseState', { nullable: true }),
    licenseNumber: t.exposeString('licenseNumber', { nullable: true }),
  }),
});

const ProviderBillingInput = builder.inputType('ProviderBillingInput', {
  fields: (t) => ({
    npi: t.string({ required: true }),
    taxonomyCode: t.string({ required: true }),
    licenseState: t.string({ required: true }),
    licenseNumber: t.string({ required: true }),
  }),
});

/** The arguments as plain data (GraphQL's input objects have no prototype). */
const plain = (input: object): unknown => JSON.parse(JSON.stringify(input));

builder.queryFields((t) => ({
  providerBilling: t.field({
    type: ProviderBillingRef,
    description: "A provider's billing identity (the provider themself, or an administrator).",
    args: { providerId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.providerBilling.providerBilling(callerOf(ctx, 'providerBilling'), String(args.providerId)),
  }),
}));

builder.mutationFields((t) => ({
  updateProviderBilling: t.field({
    type: ProviderBillingRef,
    description: "Writes a provider's NPI, taxonomy code and licence (the provider themself, or an administrator).",
    args: {
      providerId: t.arg.id({ required: true }),
      input: t.arg({ type: ProviderBillingInput, required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.providerBilling.updateProviderBilling(
        callerOf(ctx, 'updateProviderBilling'),
        String(args.providerId),
        plain(args.input),
      ),
  }),
}));
