import type { StoredTextFindingView } from './stored-text-review.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

const StoredTextFindingRef = builder.objectRef<StoredTextFindingView>('StoredTextFinding').implement({
  description:
    'A stored value the text rule refuses, found at start and made inert in place (decision 022). Where it is and what was wrong; never the value, which is kept encrypted.',
  fields: (t) => ({
    id: t.exposeID('id'),
    table: t.exposeString('tableName', { description: 'patients, providers, users or access_requests' }),
    recordId: t.exposeID('recordId'),
    field: t.exposeString('field', { description: 'The field; in a stored form, form.<field>.' }),
    problem: t.exposeString('problem', { description: 'markup (< or > in a short field) or invalidCharacters' }),
    foundAt: t.string({ resolve: (f) => f.foundAt.toISOString() }),
    resolvedAt: t.string({ nullable: true, resolve: (f) => f.resolvedAt?.toISOString() ?? null }),
  }),
});

builder.queryField('storedTextFindings', (t) =>
  t.field({
    type: [StoredTextFindingRef],
    description: 'Administrators: stored text made inert under the text rule, newest first. Audited.',
    args: { includeResolved: t.arg.boolean() },
    resolve: (_root, args, ctx) => ctx.storedText.list(callerOf(ctx, 'storedTextFindings'), args),
  }),
);

builder.mutationField('resolveStoredTextFinding', (t) =>
  t.field({
    type: StoredTextFindingRef,
    description: 'Administrators: marks a finding resolved once its record has been checked. Audited. NOT_FOUND.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.storedText.resolve(callerOf(ctx, 'resolveStoredTextFinding'), String(args.id)),
  }),
);
