/**
 * Patient records for server tests: created by a signed-in member of staff through the API (as the product
 * does), written straight to the table where a test needs a row the API would not make, and a patient with a
 * portal account linked to their record.
 */
import { eq } from 'drizzle-orm';
import { patients } from '../../src/patients/patients.table.ts';
import type { TestApp, TestClient } from '../helpers.ts';
import { signedInAccount, type Account, type AccountFields, type SignedIn } from './accounts.ts';
import { dataOf, lettersOf, nextSerial, uniqueEmail } from './graphql.ts';

const CREATE_PATIENT = 'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }';

export interface PatientRecord {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * A patient record created by `by` (a provider's is their own; an administrator's has no provider unless
 * `owner` says). `fields` adds to or replaces the form's answers; the default name is unique, in letters.
 */
export async function createPatient(by: TestClient, fields: Record<string, unknown> = {}): Promise<PatientRecord> {
  const input = {
    firstName: 'Lena',
    lastName: `Visit${lettersOf(nextSerial())}`,
    email: uniqueEmail('patient', 'example.net'),
    dateOfBirth: '1988-02-03',
    ...fields,
  } as { firstName: string; lastName: string; email: string };
  const { createPatient } = dataOf(await by.gql<{ createPatient: { id: string } }>(CREATE_PATIENT, { input }));
  return { id: createPatient.id, email: input.email, firstName: input.firstName, lastName: input.lastName };
}

/**
 * A patient row written straight to the table (no audit entry, no sealing of clinical text): for tests that
 * need a record the API would not create as such, or many at once.
 */
export async function insertPatient(t: TestApp, values: Partial<typeof patients.$inferInsert> = {}): Promise<string> {
  const [row] = await t.runtime.database.db
    .insert(patients)
    .values({
      firstName: 'Iris',
      lastName: `Record${lettersOf(nextSerial())}`,
      email: uniqueEmail('record', 'example.net'),
      dateOfBirth: '1979-03-02',
      ...values,
    })
    .returning({ id: patients.id });
  return row!.id;
}

export interface PortalPatient extends SignedIn, Account {
  /** The patient record linked to the account. */
  patientId: string;
}

/**
 * A patient with a portal account of their own, signed in (on `on`, another app of the same database, if
 * given), linked to a record created by `by` with `record`'s fields; the account has the record's name and
 * address unless `account` says otherwise.
 */
export async function createPortalPatient(
  t: TestApp,
  by: TestClient,
  options: { record?: Record<string, unknown>; account?: AccountFields; on?: TestApp } = {},
): Promise<PortalPatient> {
  const record = await createPatient(by, options.record);
  const person = await signedInAccount(
    t,
    'patient',
    { email: record.email, firstName: record.firstName, lastName: record.lastName, ...options.account },
    options.on,
  );
  // No operation links an existing account to a record (an invitation creates the account): the table does.
  await t.runtime.database.db.update(patients).set({ accountId: person.id }).where(eq(patients.id, record.id));
  return { ...person, patientId: record.id };
}
