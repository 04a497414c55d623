/**
 * The caller-bound scope (access/scope.ts, decision 054) against a real database: a record out of reach is
 * recorded once and answered like a missing one, a denial inside a transaction is recorded after it, and the
 * caller's emergency access grants are read at most once per request; a caller without a session writes its audit
 * entries in the same shape.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, ERROR_CODES } from '@telehealth/shared';
import { actorScope, RequestScope, systemScope } from '../src/access/scope.ts';
import type { SessionUser } from '../src/auth/auth.service.ts';
import { emergencyAccessGrants } from '../src/emergency-access/emergency-access.table.ts';
import { AppError } from '../src/errors.ts';
import { emergencyAccessGrantsEncrypted } from '../src/keys/encrypted-columns.ts';
import type { Runtime } from '../src/runtime.ts';
import { createTestAccount, createTestDatabase, openTestRuntime } from './helpers.ts';

let runtime: Runtime;
let provider: SessionUser;
let patientId: string;

const db = () => runtime.database.db;

function requestOf(user: SessionUser): RequestScope {
  return new RequestScope(db(), user, {
    sessionId: null,
    userId: user.id,
    userRole: user.role,
    clientIp: null,
    userAgent: null,
  });
}

// Plain SQL rather than the tables' Drizzle objects: this file does not depend on where a domain keeps them.
async function entriesOf(operation: string) {
  const result = await db().execute<{ event: string; level: string; user_id: string; details: unknown }>(
    sql`SELECT event, level, user_id, details FROM audit_entries WHERE url = ${operation} ORDER BY id`,
  );
  return result.rows;
}

async function denialsOf(operation: string) {
  return (await entriesOf(operation))
    .filter((entry) => entry.event === 'UNAUTHORIZED_ACCESS')
    .map((entry) => ({ details: entry.details }));
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

beforeAll(async () => {
  runtime = await openTestRuntime(await createTestDatabase());
  const id = await createTestAccount(runtime, {
    email: 'scope.provider@example.com',
    firstName: 'Sco',
    lastName: 'Pe',
    role: 'provider',
    password: DEMO_PASSWORD,
  });
  provider = {
    id,
    email: 'scope.provider@example.com',
    firstName: 'Sco',
    lastName: 'Pe',
    name: 'Sco Pe',
    role: 'provider',
  };
  const inserted = await db().execute<{ id: string }>(
    sql`INSERT INTO patients (first_name, last_name, email, date_of_birth)
        VALUES ('Scoped', 'Patient', ${`scoped.${randomUUID().slice(0, 8)}@example.com`}, '1980-01-01') RETURNING id`,
  );
  patientId = inserted.rows[0]!.id;
});

describe('scope.find', () => {
  const spec = (operation: string) => ({
    read: () => Promise.resolve(undefined),
    exists: () => Promise.resolve(true),
    missing: 'patientMessages.notFound' as const,
    denial: { patientIds: [operation] },
  });

  it('answers the record the reach holds, and records nothing', async () => {
    const scope = requestOf(provider).as('scopeFindsOwn');
    const found = await scope.find('patient:read', patientId, {
      read: () => Promise.resolve({ id: patientId }),
      exists: () => Promise.resolve(true),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
    expect(found).toEqual({ id: patientId });
    expect(await denialsOf('scopeFindsOwn')).toEqual([]);
  });

  it('records an existing record out of reach once, then answers not found', async () => {
    const scope = requestOf(provider).as('scopeOutOfReach');
    const error = await rejection(scope.find('patient:read', patientId, spec('scopeOutOfReach')));
    expect(error.code).toBe(ERROR_CODES.notFound);
    expect(error.messageId).toBe('patientMessages.notFound');
    expect(await denialsOf('scopeOutOfReach')).toEqual([
      {
        details: {
          permission: 'patient:read:any',
          reason: "not in the caller's scope",
          patientIds: ['scopeOutOfReach'],
        },
      },
    ]);
  });

  it('answers a missing record and an id that is no UUID alike, without recording', async () => {
    const scope = requestOf(provider).as('scopeMissing');
    let asked = 0;
    const missing = {
      read: () => Promise.resolve(undefined),
      exists: () => {
        asked += 1;
        return Promise.resolve(false);
      },
      missing: 'patientMessages.notFound' as const,
      denial: {},
    };
    expect((await rejection(scope.find('patient:read', randomUUID(), missing))).code).toBe(ERROR_CODES.notFound);
    expect((await rejection(scope.find('patient:read', 'not-a-uuid', missing))).code).toBe(ERROR_CODES.notFound);
    expect(asked).toBe(1);
    expect(await denialsOf('scopeMissing')).toEqual([]);
  });

  it('with load and within: the loaded record out of reach names itself in the denial and the answer', async () => {
    const scope = requestOf(provider).as('scopeLoaded');
    const error = await rejection(
      scope.find('visit:join', patientId, {
        load: (_db, id) => Promise.resolve({ id, holder: 'someone else' }),
        within: (row) => row.holder === provider.id,
        missing: (row) => new AppError(ERROR_CODES.forbidden, 'videoMessages.notYourVisit', {}, { id: row?.id }),
        denial: (row) => ({ appointmentIds: [row.id] }),
      }),
    );
    expect(error.code).toBe(ERROR_CODES.forbidden);
    expect((await denialsOf('scopeLoaded')).map((d) => d.details)).toEqual([
      { permission: 'visit:join:any', reason: "not in the caller's scope", appointmentIds: [patientId] },
    ]);
  });

  it('inside a transaction, records the attempt once, after the transaction has rolled back', async () => {
    const scope = requestOf(provider).as('scopeTransaction');
    const error = await rejection(
      scope.transaction(async (tx, scoped) => {
        await scope.audit(tx, 'PATIENT_VIEW', { patientIds: [patientId] });
        return scoped.find('patient:update', patientId, spec('scopeTransaction'));
      }),
    );
    expect(error.code).toBe(ERROR_CODES.notFound);
    // The transaction's own entry rolled back with it; the denial was written after, once.
    expect((await entriesOf('scopeTransaction')).map((entry) => entry.event)).toEqual(['UNAUTHORIZED_ACCESS']);
  });
});

describe('emergency access grants', () => {
  it('are read at most once per request, whichever operation of it asks', async () => {
    const request = requestOf(provider);
    const first = request.as('scopeGrantsA');
    expect(await first.emergencyGrants()).toEqual([]);
    // A grant written after the first read is not seen by the same request: the grants were not read again.
    const grantId = randomUUID();
    const [grant] = await db()
      .insert(emergencyAccessGrants)
      .values(
        emergencyAccessGrantsEncrypted.seal(runtime.keyring, grantId, {
          id: grantId,
          providerId: provider.id,
          patientId,
          reason: 'scope test',
          startedAt: new Date(),
          endsAt: new Date(Date.now() + 60 * 60_000),
        }),
      )
      .returning({ id: emergencyAccessGrants.id });
    expect(await request.as('scopeGrantsB').emergencyGrants()).toEqual([]);
    const reach = await first.reach('patient:read', { emergency: true });
    expect(reach).toMatchObject({ kind: 'own', field: 'ownerId' });
    expect(reach.kind === 'own' ? reach.emergency : 'any').toBeUndefined();
    // A new request (or a grant started in this one) reads them again.
    expect((await requestOf(provider).as('scopeGrantsC').emergencyGrants()).map((g) => g.id)).toEqual([grant!.id]);
    request.forgetEmergencyGrants();
    const widened = await first.reach('patient:read', { emergency: true });
    expect(widened.kind === 'own' ? widened.emergency?.map((g) => g.id) : null).toEqual([grant!.id]);
  });

  it('are not read for a read that emergency access does not open', async () => {
    const request = requestOf(provider);
    const scope = request.as('scopeNoGrants');
    const reach = await scope.reach('patient:read');
    expect(reach).toEqual({ kind: 'own', field: 'ownerId', callerId: provider.id });
  });
});

describe('scope.audit', () => {
  it("writes the caller's entry with its actor and operation", async () => {
    const scope = requestOf(provider).as('scopeAudit');
    await scope.audit(db(), 'PATIENT_VIEW', { patientIds: [patientId] }, { level: 'WARNING' });
    expect(await entriesOf('scopeAudit')).toEqual([
      { event: 'PATIENT_VIEW', level: 'WARNING', user_id: provider.id, details: { patientIds: [patientId] } },
    ]);
  });
});

describe('the scope of a caller without a session', () => {
  it('writes the same shape of entry as a signed-in scope: its actor, its operation, INFO unless asked', async () => {
    const actor = {
      sessionId: null,
      userId: 'anonymous',
      userRole: 'unknown',
      clientIp: '203.0.113.9',
      userAgent: null,
    };
    const signedIn = requestOf(provider).as('actorScopeAudit');
    const details = { accessRequestId: randomUUID() };
    expect(actorScope(actor, 'actorScopeAudit').auditRecord('RATE_LIMITED', details, { level: 'WARNING' })).toEqual({
      ...signedIn.auditRecord('RATE_LIMITED', details, { level: 'WARNING' }),
      actor,
    });
    await actorScope(actor, 'actorScopeAudit').audit(db(), 'ACCESS_REQUEST_SUBMITTED', details);
    await systemScope('actorScopeAudit').audit(db(), 'RECORDING_DELETED', details);
    expect(await entriesOf('actorScopeAudit')).toEqual([
      { event: 'ACCESS_REQUEST_SUBMITTED', level: 'INFO', user_id: 'anonymous', details },
      { event: 'RECORDING_DELETED', level: 'INFO', user_id: 'system', details },
    ]);
  });
});
