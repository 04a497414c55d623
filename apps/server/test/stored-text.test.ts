import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, ERROR_CODES, textProblem } from '@telehealth/shared';
import { accessRequests } from '../src/access-requests/access-requests.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { users } from '../src/auth/auth.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { providers } from '../src/providers/providers.table.ts';
import { storedTextFindings, textRuleReviews } from '../src/stored-text/stored-text.table.ts';
import {
  accessRequestsEncrypted,
  patientsEncrypted,
  storedTextFindingsEncrypted,
} from '../src/keys/encrypted-columns.ts';
import { inertText, reviewStoredText, TEXT_RULE_VERSION } from '../src/stored-text/stored-text-review.ts';
import { createTestApp, TestClient, type TestApp, submitPatientAccessRequest } from './helpers.ts';

let t: TestApp;
let admin: TestClient;
const db = () => t.runtime.database.db;
const keyring = () => t.runtime.keyring;

const FINDINGS = '{ storedTextFindings { id table recordId field problem foundAt resolvedAt } }';

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app);
  await admin.signIn('admin@demo.test', DEMO_PASSWORD);
});

describe('inertText', () => {
  it('keeps what was typed readable and leaves nothing the rule refuses', () => {
    expect(inertText('<img src=x onerror=alert(1)>', 'short')).toBe('‹img src=x onerror=alert(1)›');
    expect(inertText('abc\u202egpj.exe', 'short')).toBe('abc\ufffdgpj.exe');
    expect(inertText('Line\u0007one\nline two <b>', 'free')).toBe('Line\ufffdone\nline two <b>');
    // A link at the start of a one-line field (text rule version 2) loses its colon to a look-alike.
    expect(inertText('javascript:alert(1)', 'short')).toBe('javascript\ua789alert(1)');
    expect(inertText('javascript:alert(1)', 'free')).toBe('javascript:alert(1)');
    expect(inertText('Note: 10:30', 'short')).toBe('Note: 10:30');
    for (const [value, kind] of [
      ['<svg/onload=alert(1)>\t', 'short'],
      [' Java Script :x', 'short'],
      ['a\u0001\u009f', 'free'],
    ] as const) {
      expect(textProblem(inertText(value, kind), kind, Infinity)).toBeNull();
    }
  });
});

describe('the stored-text review', () => {
  it('found nothing in a database written under the rule, and recorded that it ran', async () => {
    const [review] = await db().select().from(textRuleReviews);
    expect(review).toMatchObject({ ruleVersion: TEXT_RULE_VERSION, findings: 0 });
    const response = await admin.gql<{ storedTextFindings: unknown[] }>(FINDINGS);
    expect(response.data?.storedTextFindings).toEqual([]);
  });

  it('makes stored values the rule refuses inert, keeps each as it was, and lists where they are', async () => {
    // Values the old regular-expression filter let through, written as they would have been stored.
    const created = await admin.gql<{ createPatient: { id: string } }>(
      'mutation C($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
      { input: { firstName: 'Rosa', lastName: 'Stored', email: 'rosa.stored@example.com', dateOfBirth: '1980-01-01' } },
    );
    const patientId = created.data!.createPatient.id;
    await db()
      .update(patients)
      .set({
        city: '<svg/onload=alert(1)>',
        ...patientsEncrypted.seal(keyring(), patientId, {
          insurancePolicyNumber: 'AB<img src=x>12',
          allergies: 'dose < 5 mg',
        }),
      })
      .where(eq(patients.id, patientId));
    const [account] = await db().select({ id: users.id }).from(users).where(eq(users.email, 'provider@demo.test'));
    await db().update(users).set({ name: 'Maya \u202eOkafor' }).where(eq(users.id, account!.id));
    await db().update(providers).set({ bio: 'Bell\u0007 ringer' }).where(eq(providers.id, account!.id));
    await submitPatientAccessRequest(t.app, { email: 'ana.stored@example.com' });
    const [request] = await db()
      .select()
      .from(accessRequests)
      .where(eq(accessRequests.email, 'ana.stored@example.com'));
    const form = JSON.parse(
      accessRequestsEncrypted.decryptValue(keyring(), request!.id, 'form', request!.form),
    ) as Record<string, unknown>;
    const storedForm = { ...form, address: '<script>alert(1)</script>', reasonForInterest: 'Anxiety <b>bad</b>' };
    await db()
      .update(accessRequests)
      .set(accessRequestsEncrypted.seal(keyring(), request!.id, { form: JSON.stringify(storedForm) }))
      .where(eq(accessRequests.id, request!.id));

    // A database from before the rule: its review has not run.
    await db().delete(textRuleReviews);
    const logged: unknown[] = [];
    const found = await reviewStoredText(db(), keyring(), { warn: (obj: object) => void logged.push(obj) });
    expect(found).toBe(5);

    // Inert in place, what was typed still readable; free text with markup left as typed.
    const [after] = await db().select().from(patients).where(eq(patients.id, patientId));
    expect(after!.city).toBe('‹svg/onload=alert(1)›');
    expect(
      patientsEncrypted.decryptValue(keyring(), patientId, 'insurancePolicyNumber', after!.insurancePolicyNumber!),
    ).toBe('AB‹img src=x›12');
    expect(patientsEncrypted.decryptValue(keyring(), patientId, 'allergies', after!.allergies!)).toBe('dose < 5 mg');
    const [user] = await db().select({ name: users.name }).from(users).where(eq(users.id, account!.id));
    expect(user!.name).toBe('Maya \ufffdOkafor');
    const [provider] = await db().select({ bio: providers.bio }).from(providers).where(eq(providers.id, account!.id));
    expect(provider!.bio).toBe('Bell\ufffd ringer');
    const [requestAfter] = await db().select().from(accessRequests).where(eq(accessRequests.id, request!.id));
    const formAfter = JSON.parse(
      accessRequestsEncrypted.decryptValue(keyring(), request!.id, 'form', requestAfter!.form),
    ) as Record<string, unknown>;
    expect(formAfter).toEqual({ ...storedForm, address: '‹script›alert(1)‹/script›' });

    // Each original kept, encrypted.
    const kept = await db().select().from(storedTextFindings);
    const originals = Object.fromEntries(
      kept.map((finding) => [
        `${finding.tableName}.${finding.field}`,
        storedTextFindingsEncrypted.decryptValue(keyring(), finding.id, 'originalValue', finding.originalValue),
      ]),
    );
    expect(originals).toEqual({
      'patients.city': '<svg/onload=alert(1)>',
      'patients.insurancePolicyNumber': 'AB<img src=x>12',
      'users.name': 'Maya \u202eOkafor',
      'providers.bio': 'Bell\u0007 ringer',
      'access_requests.form.address': '<script>alert(1)</script>',
    });

    // The log and the audit trail say where, never what.
    expect(JSON.stringify(logged)).not.toMatch(/svg|script|img|Okafor|Bell/);
    expect(logged).toContainEqual({ table: 'patients', recordId: patientId, field: 'city', problem: 'markup' });
    const reviews = await db()
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'STORED_TEXT_REVIEWED'))
      .orderBy(auditEntries.id);
    const last = reviews.at(-1);
    expect(last!.details).toMatchObject({ ruleVersion: TEXT_RULE_VERSION, findings: 5 });
    expect(JSON.stringify(last!.details)).not.toMatch(/svg|script|img|Okafor|Bell/);

    // Once per version of the rule.
    expect(await reviewStoredText(db(), keyring(), { warn: () => undefined })).toBe(0);
    expect(await db().$count(storedTextFindings)).toBe(5);
  });

  it('lists the findings to administrators only, and lets them mark one resolved', async () => {
    const listed = await admin.gql<{
      storedTextFindings: { id: string; table: string; field: string; problem: string; resolvedAt: string | null }[];
    }>(FINDINGS);
    const findings = listed.data?.storedTextFindings ?? [];
    expect(findings.map((f) => `${f.table}.${f.field}:${f.problem}`).sort()).toEqual([
      'access_requests.form.address:markup',
      'patients.city:markup',
      'patients.insurancePolicyNumber:markup',
      'providers.bio:invalidCharacters',
      'users.name:invalidCharacters',
    ]);

    for (const email of ['provider@demo.test', 'patient@demo.test']) {
      const client = new TestClient(t.app);
      await client.signIn(email, DEMO_PASSWORD);
      const refused = await client.gql(FINDINGS);
      expect(refused.errors?.[0]?.extensions?.code, email).toBe(ERROR_CODES.forbidden);
    }

    const first = findings[0]!;
    const resolved = await admin.gql<{ resolveStoredTextFinding: { id: string; resolvedAt: string | null } }>(
      'mutation R($id: ID!) { resolveStoredTextFinding(id: $id) { id resolvedAt } }',
      { id: first.id },
    );
    expect(resolved.data?.resolveStoredTextFinding.resolvedAt).toMatch(/^\d{4}-/);
    const open = await admin.gql<{ storedTextFindings: { id: string }[] }>(FINDINGS);
    expect(open.data?.storedTextFindings.map((f) => f.id)).not.toContain(first.id);
    const all = await admin.gql<{ storedTextFindings: { id: string }[] }>(
      '{ storedTextFindings(includeResolved: true) { id } }',
    );
    expect(all.data?.storedTextFindings).toHaveLength(5);

    const missing = await admin.gql('mutation R($id: ID!) { resolveStoredTextFinding(id: $id) { id } }', {
      id: crypto.randomUUID(),
    });
    expect(missing.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.notFound);
    const audited = await db().select().from(auditEntries).where(eq(auditEntries.event, 'STORED_TEXT_RESOLVED'));
    expect(audited).toHaveLength(1);
  });
});
