import { Readable } from 'node:stream';
import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import type { Database } from '../db/client.ts';
import { appointments } from '../appointments/appointments.table.ts';
import { allergies } from '../clinical-record/allergies.table.ts';
import { diagnoses } from '../clinical-record/diagnoses.table.ts';
import { medications } from '../clinical-record/medications.table.ts';
import { treatmentPlans, treatmentPlanVersions } from '../clinical-record/treatment-plans.table.ts';
import { measures } from '../measures/measures.table.ts';
import { notes } from '../notes/notes.table.ts';
import { findExportablePatientRows, patientRecords } from '../patients/patients.repository.ts';
import { providers } from '../providers/providers.table.ts';
import { notFound } from '../errors.ts';
import {
  allergiesEncrypted,
  appointmentsEncrypted,
  diagnosesEncrypted,
  measuresEncrypted,
  medicationsEncrypted,
  notesEncrypted,
  treatmentPlanVersionsEncrypted,
} from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import {
  allergyIntoleranceResource,
  appointmentResource,
  carePlanResource,
  conditionResource,
  documentReferenceResource,
  FHIR_RESOURCE_TYPES,
  goalResources,
  medicationStatementResource,
  observationResource,
  patientResource,
  practitionerResource,
  referencesOf,
  withBundleReferences,
  type FhirResourceType,
  type SignedTreatmentPlan,
} from './fhir.ts';

// FHIR R4 exports (decision 037): for the whole practice, the Bulk Data format (a manifest, then one NDJSON file
// per resource type, each streamed from one snapshot in pages); for one patient, a Bundle of type collection (the
// patient's right of access). Administrators only; every export is a PHI_EXPORT audit entry naming the patients.
// Psychotherapy notes are never exported, nor drafts (of notes, of treatment plans), deleted notes or notes about no
// patient.

const PAGE = 200;
export const FHIR_NDJSON_TYPE = 'application/fhir+ndjson';
export const FHIR_JSON_TYPE = 'application/fhir+json';

/** The Bulk Data export manifest (http://hl7.org/fhir/uv/bulkdata/export.html#response---complete-status). */
export interface BulkManifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: { type: FhirResourceType; url: string; count: number }[];
  error: never[];
}

type Tx = NodePgDatabase;

const patient = patientRecords('patient');

/**
 * A resource type held per patient: its table, which rows are exported (beside their patient not being deleted),
 * and how a page of them becomes resources. A new type is a builder in fhir.ts and an entry here.
 */
interface PatientRecordSource {
  table: PgTable;
  id: AnyPgColumn;
  patientId: AnyPgColumn<{ data: string }>;
  where?: () => SQL | undefined;
  /** Up to PAGE rows matching `where` (with `patient` joined), in id order, as resources. */
  page: (tx: Tx, keyring: Keyring, where: SQL | undefined) => Promise<RecordPage>;
  /** A row is any number of resources (a plan's goals): the count reads them all, not the rows. */
  manyPerRow?: true;
}

/** A page of rows as resources: how many rows it read, and the last one's id (where the next page starts). */
interface RecordPage {
  resources: Resource[];
  rows: number;
  last: string | undefined;
}

/** A page whose rows are one resource each, with the row's id. */
const onePerRow = (resources: Resource[]): RecordPage => ({
  resources,
  rows: resources.length,
  last: resources.at(-1)?.id,
});

/** The plans with a signed version: only those are exported (never a draft). */
const hasSignedVersion = () =>
  sql`EXISTS (SELECT 1 FROM ${treatmentPlanVersions} AS signed
    WHERE signed.plan_id = ${treatmentPlans.id} AND signed.signed_at IS NOT NULL)`;

/** Each plan's latest signed version, joined to its plan. */
const latestSignedVersion = () =>
  and(
    eq(treatmentPlanVersions.planId, treatmentPlans.id),
    isNotNull(treatmentPlanVersions.signedAt),
    sql`NOT EXISTS (SELECT 1 FROM ${treatmentPlanVersions} AS later
      WHERE later.plan_id = ${treatmentPlanVersions.planId} AND later.signed_at IS NOT NULL
        AND later.version > ${treatmentPlanVersions.version})`,
  );

/** Up to PAGE plans (in id order) with their latest signed version, readable. */
async function signedPlans(tx: Tx, keyring: Keyring, where: SQL | undefined): Promise<SignedTreatmentPlan[]> {
  const rows = await tx
    .select({ planId: treatmentPlans.id, patientId: treatmentPlans.patientId, v: treatmentPlanVersions })
    .from(treatmentPlans)
    .innerJoin(patient, eq(patient.id, treatmentPlans.patientId))
    .innerJoin(treatmentPlanVersions, latestSignedVersion())
    .where(where)
    .orderBy(asc(treatmentPlans.id))
    .limit(PAGE);
  return rows.map(({ planId, patientId, v }) => {
    // Signed: signedAt is set (the join), and with it signedBy (the table's CHECK).
    const row = treatmentPlanVersionsEncrypted.open(keyring, { ...v }) as SignedTreatmentPlan['row'];
    return { planId, patientId, row, content: JSON.parse(row.content) as SignedTreatmentPlan['content'] };
  });
}

type PatientRecordType = Exclude<FhirResourceType, 'Patient' | 'Practitioner'>;

const PATIENT_RECORDS: Record<PatientRecordType, PatientRecordSource> = {
  Appointment: {
    table: appointments,
    id: appointments.id,
    patientId: appointments.patientId,
    page: async (tx, keyring, where) => {
      const rows = await tx
        .select({ a: appointments })
        .from(appointments)
        .innerJoin(patient, eq(patient.id, appointments.patientId))
        .where(where)
        .orderBy(asc(appointments.id))
        .limit(PAGE);
      return onePerRow(
        rows.map(({ a }) => {
          const open = appointmentsEncrypted.open(keyring, { ...a });
          return appointmentResource(a, { reason: open.reason, notes: open.notes, cancelReason: open.cancelReason });
        }),
      );
    },
  },
  Observation: {
    table: measures,
    id: measures.id,
    patientId: measures.patientId,
    where: () => eq(measures.status, 'completed'),
    page: async (tx, keyring, where) => {
      const rows = await tx
        .select({ m: measures })
        .from(measures)
        .innerJoin(patient, eq(patient.id, measures.patientId))
        .where(where)
        .orderBy(asc(measures.id))
        .limit(PAGE);
      return onePerRow(
        rows.map(({ m }) => {
          const answers = m.answers
            ? (JSON.parse(measuresEncrypted.decryptValue(keyring, m.id, 'answers', m.answers)) as Parameters<
                typeof observationResource
              >[1])
            : null;
          return observationResource(m, answers);
        }),
      );
    },
  },
  DocumentReference: {
    table: notes,
    id: notes.id,
    patientId: notes.patientId,
    where: () =>
      and(isNotNull(notes.signedAt), eq(notes.isPrivate, false), isNull(notes.deletedAt), isNotNull(notes.patientId)),
    page: async (tx, keyring, where) => {
      const rows = await tx
        .select({ n: notes })
        .from(notes)
        .innerJoin(patient, eq(patient.id, notes.patientId))
        .where(where)
        .orderBy(asc(notes.id))
        .limit(PAGE);
      return onePerRow(
        rows.map(({ n }) => {
          const open = notesEncrypted.open(keyring, { ...n });
          return documentReferenceResource(n, { title: open.title, content: open.content });
        }),
      );
    },
  },
  Condition: {
    table: diagnoses,
    id: diagnoses.id,
    patientId: diagnoses.patientId,
    page: async (tx, keyring, where) => {
      const rows = await tx
        .select({ d: diagnoses })
        .from(diagnoses)
        .innerJoin(patient, eq(patient.id, diagnoses.patientId))
        .where(where)
        .orderBy(asc(diagnoses.id))
        .limit(PAGE);
      return onePerRow(rows.map(({ d }) => conditionResource(diagnosesEncrypted.open(keyring, { ...d }))));
    },
  },
  MedicationStatement: {
    table: medications,
    id: medications.id,
    patientId: medications.patientId,
    page: async (tx, keyring, where) => {
      const rows = await tx
        .select({ m: medications })
        .from(medications)
        .innerJoin(patient, eq(patient.id, medications.patientId))
        .where(where)
        .orderBy(asc(medications.id))
        .limit(PAGE);
      return onePerRow(rows.map(({ m }) => medicationStatementResource(medicationsEncrypted.open(keyring, { ...m }))));
    },
  },
  AllergyIntolerance: {
    table: allergies,
    id: allergies.id,
    patientId: allergies.patientId,
    page: async (tx, keyring, where) => {
      const rows = await tx
        .select({ a: allergies })
        .from(allergies)
        .innerJoin(patient, eq(patient.id, allergies.patientId))
        .where(where)
        .orderBy(asc(allergies.id))
        .limit(PAGE);
      return onePerRow(rows.map(({ a }) => allergyIntoleranceResource(allergiesEncrypted.open(keyring, { ...a }))));
    },
  },
  CarePlan: {
    table: treatmentPlans,
    id: treatmentPlans.id,
    patientId: treatmentPlans.patientId,
    where: hasSignedVersion,
    page: async (tx, keyring, where) => onePerRow((await signedPlans(tx, keyring, where)).map(carePlanResource)),
  },
  Goal: {
    table: treatmentPlans,
    id: treatmentPlans.id,
    patientId: treatmentPlans.patientId,
    where: hasSignedVersion,
    manyPerRow: true,
    page: async (tx, keyring, where) => {
      const plans = await signedPlans(tx, keyring, where);
      return { resources: plans.flatMap(goalResources), rows: plans.length, last: plans.at(-1)?.planId };
    },
  },
};

const PATIENT_RECORD_TYPES = Object.keys(PATIENT_RECORDS) as PatientRecordType[];

/** The rows of a source that are exported: its own rule, the patient not deleted; a page after `after`, one patient. */
function exportedRows(source: PatientRecordSource, page?: { after: string; patientId?: string }): SQL | undefined {
  return and(
    source.where?.(),
    isNull(patient.deletedAt),
    page ? gt(source.id, page.after) : undefined,
    page?.patientId ? eq(source.patientId, page.patientId) : undefined,
  );
}

export class DataExportService {
  readonly #db: Database;
  readonly #pool: pg.Pool;
  readonly #keyring: Keyring;

  constructor(deps: { db: Database; pool: pg.Pool; keyring: Keyring }) {
    this.#db = deps.db;
    this.#pool = deps.pool;
    this.#keyring = deps.keyring;
  }

  /** How many resources of each type the practice's export holds now. */
  async counts(caller: Caller): Promise<Record<FhirResourceType, number>> {
    await authorize(this.#db, caller, 'data:export');
    return this.#counts(this.#db);
  }

  async #counts(tx: Tx): Promise<Record<FhirResourceType, number>> {
    const one = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
    const counts = {
      Patient: await one(tx.select({ n: count() }).from(patient).where(isNull(patient.deletedAt))),
      Practitioner: await one(tx.select({ n: count() }).from(providers)),
    } as Record<FhirResourceType, number>;
    for (const type of PATIENT_RECORD_TYPES) {
      const source = PATIENT_RECORDS[type];
      if (source.manyPerRow) {
        counts[type] = 0;
        for await (const _resource of this.#resources(tx, type)) counts[type] += 1;
        continue;
      }
      counts[type] = await one(
        tx
          .select({ n: count() })
          .from(source.table)
          .innerJoin(patient, eq(patient.id, source.patientId))
          .where(exportedRows(source)),
      );
    }
    return counts;
  }

  /** The Bulk Data manifest: where each type's NDJSON file is and how many resources it holds. */
  async manifest(caller: Caller, baseUrl: string): Promise<BulkManifest> {
    await authorize(this.#db, caller, 'data:export');
    const counts = await this.#counts(this.#db);
    return {
      transactionTime: new Date().toISOString(),
      request: `${baseUrl}/api/admin/data/fhir/$export`,
      requiresAccessToken: true,
      output: FHIR_RESOURCE_TYPES.map((type) => ({
        type,
        url: `${baseUrl}/api/admin/data/fhir/${type}.ndjson`,
        count: counts[type],
      })),
      error: [],
    };
  }

  /**
   * One resource type of the practice as NDJSON, streamed: checked and audited (PHI_EXPORT naming every patient
   * whose data it holds) before the first byte, then read page by page from one read-only snapshot.
   */
  async ndjson(caller: Caller, resourceType: FhirResourceType): Promise<Readable> {
    await authorize(this.#db, caller, 'data:export');
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const tx: Tx = drizzle(client);
      const patientIds = await this.#patientIdsOf(tx, resourceType);
      await scopeOf(this.#db, caller).audit(this.#db, 'PHI_EXPORT', {
        format: 'fhir-ndjson',
        resourceType,
        patientIds,
      });
      return Readable.from(this.#lines(client, tx, resourceType));
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      throw error;
    }
  }

  async #patientIdsOf(tx: Tx, type: FhirResourceType): Promise<string[]> {
    if (type === 'Practitioner') return [];
    const source = type === 'Patient' ? null : PATIENT_RECORDS[type];
    const rows: { id: string | null }[] = source
      ? await tx
          .selectDistinct({ id: source.patientId })
          .from(source.table)
          .innerJoin(patient, eq(patient.id, source.patientId))
          .where(exportedRows(source))
      : await tx.select({ id: patient.id }).from(patient).where(isNull(patient.deletedAt));
    return rows.map((r) => r.id).filter((id): id is string => id !== null);
  }

  async *#lines(client: pg.PoolClient, tx: Tx, type: FhirResourceType): AsyncGenerator<string> {
    try {
      for await (const resource of this.#resources(tx, type)) yield `${JSON.stringify(resource)}\n`;
      await client.query('COMMIT');
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  }

  /** Every resource of a type, in id order, a page at a time; `patientId` limits it to one patient. */
  async *#resources(tx: Tx, type: FhirResourceType, patientId?: string): AsyncGenerator<Resource> {
    let after = '00000000-0000-0000-0000-000000000000';
    const pageOf = async (): Promise<RecordPage> => {
      if (type === 'Patient') {
        const rows = await findExportablePatientRows(tx, { after, patientId, limit: PAGE });
        return onePerRow(rows.map(patientResource));
      }
      if (type === 'Practitioner') {
        const rows = await tx
          .select()
          .from(providers)
          .where(gt(providers.id, after))
          .orderBy(asc(providers.id))
          .limit(PAGE);
        return onePerRow(rows.map(practitionerResource));
      }
      const source = PATIENT_RECORDS[type];
      return source.page(tx, this.#keyring, exportedRows(source, { after, patientId }));
    };
    for (;;) {
      const page = await pageOf();
      for (const resource of page.resources) yield resource;
      if (page.rows < PAGE || page.last === undefined) return;
      after = page.last;
    }
  }

  /**
   * One patient's record as a FHIR Bundle (type collection): the patient, their appointments, questionnaires,
   * signed notes (never psychotherapy notes), problem list, medications, allergies, and treatment plan (its latest
   * signed version) with its goals, and the practitioners these name. Audited as PHI_EXPORT.
   */
  async patientBundle(caller: Caller, patientId: string): Promise<Bundle> {
    await authorize(this.#db, caller, 'data:export');
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const tx: Tx = drizzle(client);
      const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(patientId);
      const resources: Resource[] = [];
      if (isUuid) {
        for (const type of ['Patient' as const, ...PATIENT_RECORD_TYPES]) {
          for await (const resource of this.#resources(tx, type, patientId)) resources.push(resource);
        }
      }
      if (resources[0]?.resourceType !== 'Patient') throw notFound('patientMessages.notFound');
      const practitionerIds = new Set<string>();
      for (const resource of resources) {
        for (const reference of referencesOf(resource)) {
          if (reference.startsWith('Practitioner/')) practitionerIds.add(reference.slice('Practitioner/'.length));
        }
      }
      if (practitionerIds.size > 0) {
        const rows = await tx
          .select()
          .from(providers)
          .where(inArray(providers.id, [...practitionerIds]))
          .orderBy(asc(providers.id));
        resources.push(...rows.map(practitionerResource));
      }
      await client.query('COMMIT');
      await scopeOf(this.#db, caller).audit(this.#db, 'PHI_EXPORT', {
        format: 'fhir-bundle',
        patientIds: [patientId],
        resources: resources.length,
      });
      const entry: BundleEntry[] = resources.map((resource) => ({
        fullUrl: `urn:uuid:${resource.id}`,
        resource: withBundleReferences(resource),
      }));
      return {
        resourceType: 'Bundle',
        type: 'collection',
        timestamp: new Date().toISOString(),
        entry,
      } satisfies Bundle;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
