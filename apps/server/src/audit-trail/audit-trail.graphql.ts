import type { ApiTokenView } from './api-tokens.repository.ts';
import type { AuditEntryView } from './audit-search.repository.ts';
import type { ChainVerification } from './audit-trail.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

type AuditEntryWithPerson = AuditEntryView & { person: { name: string; email: string } | null };

const AuditEntryRef = builder.objectRef<AuditEntryWithPerson>('AuditEntry').implement({
  description:
    'One audit entry (decision 034). source is server for what the server recorded itself, client for what a browser reported.',
  fields: (t) => ({
    id: t.id({ resolve: (e) => String(e.id) }),
    timestamp: t.string({ resolve: (e) => e.timestamp.toISOString() }),
    event: t.exposeString('event'),
    level: t.exposeString('level'),
    source: t.exposeString('source'),
    userId: t.exposeString('userId'),
    userRole: t.exposeString('userRole'),
    personName: t.string({ nullable: true, resolve: (e) => e.person?.name ?? null }),
    personEmail: t.string({ nullable: true, resolve: (e) => e.person?.email ?? null }),
    sessionId: t.string({ nullable: true, resolve: (e) => e.sessionId }),
    clientIp: t.string({ nullable: true, resolve: (e) => e.clientIp }),
    userAgent: t.string({ nullable: true, resolve: (e) => e.userAgent }),
    url: t.string({ nullable: true, resolve: (e) => e.url }),
    referrer: t.string({ nullable: true, resolve: (e) => e.referrer }),
    details: t.string({ description: 'The details as JSON text.', resolve: (e) => JSON.stringify(e.details) }),
    hipaaRequired: t.exposeBoolean('hipaaRequired'),
    retentionYears: t.exposeInt('retentionYears'),
    chainPosition: t.int({ nullable: true, resolve: (e) => e.chainPosition }),
    checksum: t.string({ nullable: true, resolve: (e) => e.checksum }),
    sealedAt: t.string({ nullable: true, resolve: (e) => e.sealedAt?.toISOString() ?? null }),
  }),
});

const AuditEntryPageRef = builder
  .objectRef<{ entries: AuditEntryWithPerson[]; nextCursor: string | null }>('AuditEntryPage')
  .implement({
    fields: (t) => ({
      entries: t.field({ type: [AuditEntryRef], resolve: (p) => p.entries }),
      nextCursor: t.string({
        nullable: true,
        description: 'Pass as `after` for the next page; null on the last page.',
        resolve: (p) => p.nextCursor,
      }),
    }),
  });

const AuditVerificationRef = builder.objectRef<ChainVerification>('AuditChainVerification').implement({
  description:
    'A verification of the audit chain, as recorded in its AUDIT_CHAIN_VERIFIED or AUDIT_CHAIN_BROKEN entry.',
  fields: (t) => ({
    ok: t.exposeBoolean('ok'),
    entriesChecked: t.exposeInt('entriesChecked'),
    checkedAt: t.exposeString('checkedAt'),
    brokenAt: t.int({ nullable: true, resolve: (v) => v.brokenAt }),
    reason: t.string({ nullable: true, resolve: (v) => v.reason }),
    anchorsChecked: t.exposeInt('anchorsChecked'),
    anchorProblems: t.exposeStringList('anchorProblems'),
    unsealed: t.exposeInt('unsealed'),
    stranded: t.exposeInt('stranded'),
    verifiedBy: t.exposeString('verifiedBy'),
  }),
});

const ApiTokenRef = builder.objectRef<ApiTokenView>('ApiToken').implement({
  description: 'An API token for a log collector: never its secret, only its last four characters.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    tokenHint: t.exposeString('tokenHint'),
    scopes: t.exposeStringList('scopes'),
    createdAt: t.string({ resolve: (v) => v.createdAt.toISOString() }),
    createdByName: t.string({ nullable: true, resolve: (v) => v.createdByName }),
    expiresAt: t.string({ resolve: (v) => v.expiresAt.toISOString() }),
    revokedAt: t.string({ nullable: true, resolve: (v) => v.revokedAt?.toISOString() ?? null }),
    lastUsedAt: t.string({ nullable: true, resolve: (v) => v.lastUsedAt?.toISOString() ?? null }),
  }),
});

const CreatedApiTokenRef = builder.objectRef<{ token: ApiTokenView; secret: string }>('CreatedApiToken').implement({
  fields: (t) => ({
    token: t.field({ type: ApiTokenRef, resolve: (v) => v.token }),
    secret: t.exposeString('secret', { description: 'The token itself: shown this once, never stored.' }),
  }),
});

const AuditSearchFilterInput = builder.inputType('AuditSearchFilter', {
  fields: (t) => ({
    from: t.string({ description: 'ISO 8601 date and time' }),
    to: t.string({ description: 'ISO 8601 date and time' }),
    person: t.string({ description: "An account id or an account's e-mail address" }),
    event: t.string(),
    level: t.string({ description: 'INFO, WARNING or ERROR' }),
    patientId: t.id(),
    text: t.string({ description: "Words in the entry's address, details or browser (at least 3 characters)" }),
    source: t.string({ description: 'server or client' }),
  }),
});

const CreateApiTokenInput = builder.inputType('CreateApiTokenInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    scopes: t.stringList({ required: true }),
    expiresInDays: t.int({ required: true, description: '30, 90 or 365' }),
  }),
});

builder.queryField('auditEntries', (t) =>
  t.field({
    type: AuditEntryPageRef,
    description: 'Administrators: the audit trail searched on the server, newest first, by keyset pages. Audited.',
    args: {
      filter: t.arg({ type: AuditSearchFilterInput }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: async (_root, args, ctx) => {
      const result = await ctx.auditTrail.search(callerOf(ctx, 'auditEntries'), args.filter ?? {}, {
        first: args.first,
        after: args.after,
      });
      return {
        entries: result.entries.map((e) => ({ ...e, person: result.people.get(e.userId) ?? null })),
        nextCursor: result.nextCursor,
      };
    },
  }),
);

builder.queryField('auditEntry', (t) =>
  t.field({
    type: AuditEntryRef,
    description: 'Administrators: one audit entry in full, with its place in the chain. Audited. NOT_FOUND.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { entry, person } = await ctx.auditTrail.entry(callerOf(ctx, 'auditEntry'), String(args.id));
      return { ...entry, person };
    },
  }),
);

builder.queryField('latestAuditVerification', (t) =>
  t.field({
    type: AuditVerificationRef,
    nullable: true,
    description: 'Administrators: the last verification of the audit chain, or null if it was never verified.',
    resolve: (_root, _args, ctx) => ctx.auditTrail.latestVerification(callerOf(ctx, 'latestAuditVerification')),
  }),
);

builder.mutationField('verifyAuditChain', (t) =>
  t.field({
    type: AuditVerificationRef,
    description: 'Administrators: verifies the whole audit chain and its anchors now, and records the result.',
    resolve: (_root, _args, ctx) => ctx.auditTrail.verifyChain(callerOf(ctx, 'verifyAuditChain')),
  }),
);

builder.queryField('apiTokens', (t) =>
  t.field({
    type: [ApiTokenRef],
    description: 'Administrators: the API tokens for log collectors, newest first.',
    resolve: (_root, _args, ctx) => ctx.apiTokens.listTokens(callerOf(ctx, 'apiTokens')),
  }),
);

builder.mutationField('createApiToken', (t) =>
  t.field({
    type: CreatedApiTokenRef,
    description: 'Administrators: a new API token; its secret is answered once and only its hash is stored. Audited.',
    args: { input: t.arg({ type: CreateApiTokenInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.apiTokens.createToken(callerOf(ctx, 'createApiToken'), args.input),
  }),
);

builder.mutationField('revokeApiToken', (t) =>
  t.field({
    type: ApiTokenRef,
    description: 'Administrators: revokes an API token at once. Audited. NOT_FOUND.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.apiTokens.revokeToken(callerOf(ctx, 'revokeApiToken'), String(args.id)),
  }),
);
