import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import {
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  RequestEmergencyAccessInputSchema,
  ReviewEmergencyAccessInputSchema,
  rolesWith,
  type EmergencyReviewFilter,
  type EmergencyReviewOutcome,
} from '@telehealth/shared';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { CursorCodec } from '../db/cursor.ts';
import { isUuid } from '../db/ids.ts';
import { auditEntries } from '../audit/audit.table.ts';
import { findPatientOwner, findPatientsByNameAndBirth, patientRecords } from '../patients/patients.repository.ts';
import { badUserInput, notFound, parseInput } from '../errors.ts';
import { emergencyAccessGrantsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { publishToUsers } from '../live/live-events.ts';
import type { MailService } from '../mail/mail.service.ts';
import { emergencyAccessUsedMail } from '../mail/templates.ts';
import { findActiveUsersWithRoles, userAccounts } from '../users/users.repository.ts';
import { emergencyAccessGrants, type EmergencyGrantRow } from './emergency-access.table.ts';

/** A grant as the provider sees it (the banner): when it ends. No reason, no review. */
export interface OwnEmergencyGrant {
  id: string;
  patientId: string;
  startedAt: Date;
  endsAt: Date;
}

/** A grant as administrators review it. */
export interface EmergencyGrantView {
  row: EmergencyGrantRow;
  providerName: string;
  providerEmail: string;
  patientName: string;
  reviewedByName: string | null;
  /** Reads recorded with this grant's id. */
  activityCount: number;
}

/** One audit entry recorded during a grant with its id: what was opened. */
export interface EmergencyActivity {
  timestamp: Date;
  event: string;
  url: string | null;
}

const reviewer = userAccounts('reviewer');
const provider = userAccounts('provider');
const patient = patientRecords('patient');

/** A row of `#select`. */
interface SelectedGrant {
  grant: EmergencyGrantRow;
  providerName: string;
  providerEmail: string;
  firstName: string;
  lastName: string;
  reviewedByName: string | null;
  cursorTime: string;
  activityCount: number;
}

/**
 * Emergency access, "break the glass" (decision 036). A provider opens a patient beyond their reach with a reason;
 * the grant lasts EMERGENCY_ACCESS_MINUTES and widens the reads that honour it (`authorize(..., { emergency: true
 * })`, `orEmergencyGrants`). Each grant is a critical audit event, e-mails the administrators (no health
 * information) and tells their consoles at once; an administrator reviews it.
 */
export class EmergencyAccessService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #config: Config;
  readonly #mail: MailService;
  readonly #cursors: CursorCodec<readonly [string, string]>;

  constructor(options: { db: Database; keyring: Keyring; config: Config; mail: MailService; secret: string }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#config = options.config;
    this.#mail = options.mail;
    this.#cursors = new CursorCodec(`${options.secret}:emergency-access`, 2);
  }

  /**
   * Breaks the glass: the patient by id, or by exact name and date of birth (exactly one match). A provider who
   * already reaches the patient is told to open the chart; one with an access in force gets that one again.
   */
  async request(caller: Caller, input: unknown): Promise<OwnEmergencyGrant> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('emergency-access:request');
    const data = parseInput(RequestEmergencyAccessInputSchema, input);
    const patient = await this.#findPatient(caller, data);
    if (patient.ownerId === caller.user.id) throw badUserInput('emergencyAccessMessages.alreadyReached');
    const minutes = this.#config.emergencyAccessMinutes;
    return this.#db.transaction(async (tx) => {
      // One grant in force per provider and patient: asking again while it runs answers it.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`emergency:${caller.user.id}:${patient.id}`}))`);
      const [current] = await this.#activeGrants(tx, caller.user.id, patient.id);
      if (current) return current;
      const id = randomUUID();
      const startedAt = new Date();
      const endsAt = new Date(startedAt.getTime() + minutes * 60_000);
      await tx.insert(emergencyAccessGrants).values(
        emergencyAccessGrantsEncrypted.seal(this.#keyring, id, {
          id,
          providerId: caller.user.id,
          patientId: patient.id,
          reason: data.reason,
          startedAt,
          endsAt,
        }),
      );
      await scope.audit(
        tx,
        'EMERGENCY_ACCESS_GRANTED',
        {
          emergencyAccessId: id,
          patientIds: [patient.id],
          minutes,
          endsAt: endsAt.toISOString(),
          foundBy: data.patientId ? 'id' : 'name and date of birth',
        },
        { level: 'WARNING' },
      );
      const admins = await this.#mail.adminRecipients(tx);
      await this.#mail.enqueue(
        tx,
        admins.map((admin) => ({
          to: admin.email,
          kind: 'emergency-access-used' as const,
          language: admin.language,
          content: emergencyAccessUsedMail(this.#mail.context, admin.language),
        })),
      );
      await this.#tellReviewers(tx);
      // Later reads of this request see the new grant (the scope read the grants once, decision 054).
      scope.forgetEmergencyGrants();
      return { id, patientId: patient.id, startedAt, endsAt };
    });
  }

  /** The caller's access in force to this patient, if any (the chart's banner). */
  async current(caller: Caller, patientId: string): Promise<OwnEmergencyGrant | null> {
    await scopeOf(this.#db, caller).reach('emergency-access:request');
    if (!isUuid(patientId)) return null;
    const [grant] = await this.#activeGrants(this.#db, caller.user.id, patientId);
    return grant ?? null;
  }

  /** The provider ends their access early ("I am done"). */
  async end(caller: Caller, id: string): Promise<boolean> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('emergency-access:request');
    if (!isUuid(id)) throw notFound('emergencyAccessMessages.notFound');
    return this.#db.transaction(async (tx) => {
      const [row] = await tx
        .update(emergencyAccessGrants)
        .set({ endedAt: new Date() })
        .where(
          and(
            eq(emergencyAccessGrants.id, id),
            eq(emergencyAccessGrants.providerId, caller.user.id),
            isNull(emergencyAccessGrants.endedAt),
            gt(emergencyAccessGrants.endsAt, new Date()),
          ),
        )
        .returning({ patientId: emergencyAccessGrants.patientId });
      if (!row) throw notFound('emergencyAccessMessages.notFound');
      await scope.audit(tx, 'EMERGENCY_ACCESS_ENDED', { emergencyAccessId: id, patientIds: [row.patientId] });
      scope.forgetEmergencyGrants();
      return true;
    });
  }

  /** How many uses wait for an administrator's review (the console's alert). No patient data: not audited. */
  async awaitingCount(caller: Caller): Promise<number> {
    await scopeOf(this.#db, caller).reach('emergency-access:review');
    const [row] = await this.#db
      .select({ n: sql<number>`count(*)::int` })
      .from(emergencyAccessGrants)
      .where(isNull(emergencyAccessGrants.reviewedAt));
    return row?.n ?? 0;
  }

  /** The uses for review, newest first, with who, which patient, when, why: audited (EMERGENCY_ACCESS_VIEW). */
  async list(
    caller: Caller,
    args: { filter?: EmergencyReviewFilter | null; limit?: number | null; nextToken?: string | null },
  ): Promise<{ items: EmergencyGrantView[]; nextToken: string | null }> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('emergency-access:review');
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    const filter = args.filter ?? 'awaiting';
    const conditions: SQL[] = [];
    if (filter === 'awaiting') conditions.push(isNull(emergencyAccessGrants.reviewedAt));
    if (filter === 'reviewed') conditions.push(isNotNull(emergencyAccessGrants.reviewedAt));
    if (after) {
      conditions.push(
        sql`(${emergencyAccessGrants.startedAt}, ${emergencyAccessGrants.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`,
      );
    }
    return this.#db.transaction(async (tx) => {
      const rows = await this.#select(tx)
        .where(and(...conditions))
        .orderBy(desc(emergencyAccessGrants.startedAt), desc(emergencyAccessGrants.id))
        .limit(limit + 1);
      const shown = rows.slice(0, limit);
      const last = shown.at(-1);
      if (shown.length > 0) {
        await scope.audit(tx, 'EMERGENCY_ACCESS_VIEW', {
          emergencyAccessIds: shown.map((r) => r.grant.id),
          patientIds: [...new Set(shown.map((r) => r.grant.patientId))],
          filter,
        });
      }
      return {
        items: shown.map((r) => this.#toView(r)),
        nextToken: rows.length > limit && last ? this.#cursors.encode([last.cursorTime, last.grant.id]) : null,
      };
    });
  }

  /** One use with what was opened during it (the audit entries that carry its id). Audited. */
  async get(caller: Caller, id: string): Promise<{ view: EmergencyGrantView; activity: EmergencyActivity[] }> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('emergency-access:review');
    if (!isUuid(id)) throw notFound('emergencyAccessMessages.notFound');
    return this.#db.transaction(async (tx) => {
      const [found] = await this.#select(tx).where(eq(emergencyAccessGrants.id, id));
      if (!found) throw notFound('emergencyAccessMessages.notFound');
      const view = this.#toView(found);
      const grant = view.row;
      const activity = await tx
        .select({ timestamp: auditEntries.timestamp, event: auditEntries.event, url: auditEntries.url })
        .from(auditEntries)
        .where(
          and(
            eq(auditEntries.userId, grant.providerId),
            sql`${auditEntries.timestamp} >= ${grant.startedAt.toISOString()}::timestamptz`,
            sql`${auditEntries.timestamp} <= ${(grant.endedAt ?? grant.endsAt).toISOString()}::timestamptz`,
            sql`${auditEntries.details} -> 'emergencyAccessIds' @> ${JSON.stringify([id])}::jsonb`,
          ),
        )
        .orderBy(auditEntries.timestamp)
        .limit(500);
      await scope.audit(tx, 'EMERGENCY_ACCESS_VIEW', { emergencyAccessIds: [id], patientIds: [grant.patientId] });
      return { view, activity };
    });
  }

  /** An administrator records the review's outcome (once). */
  async review(caller: Caller, input: unknown): Promise<EmergencyGrantView> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('emergency-access:review');
    const { id, outcome, note } = parseInput(ReviewEmergencyAccessInputSchema, input);
    if (!isUuid(id)) throw notFound('emergencyAccessMessages.notFound');
    await this.#db.transaction(async (tx) => {
      const [row] = await tx
        .select({ reviewedAt: emergencyAccessGrants.reviewedAt, patientId: emergencyAccessGrants.patientId })
        .from(emergencyAccessGrants)
        .where(eq(emergencyAccessGrants.id, id))
        .for('update');
      if (!row) throw notFound('emergencyAccessMessages.notFound');
      if (row.reviewedAt) throw badUserInput('emergencyAccessMessages.alreadyReviewed');
      await tx
        .update(emergencyAccessGrants)
        .set(
          emergencyAccessGrantsEncrypted.seal(this.#keyring, id, {
            reviewedBy: caller.user.id,
            reviewedAt: new Date(),
            reviewOutcome: outcome satisfies EmergencyReviewOutcome,
            reviewNote: note,
          }),
        )
        .where(eq(emergencyAccessGrants.id, id));
      await scope.audit(
        tx,
        'EMERGENCY_ACCESS_REVIEWED',
        { emergencyAccessId: id, outcome, patientIds: [row.patientId] },
        { level: outcome === 'appropriate' ? 'INFO' : 'WARNING' },
      );
      await this.#tellReviewers(tx);
    });
    const [found] = await this.#select(this.#db).where(eq(emergencyAccessGrants.id, id));
    return this.#toView(found!);
  }

  // ------------------------------------------------------------------------------------------------------

  async #findPatient(
    caller: Caller,
    data: { patientId: string | null; firstName: string | null; lastName: string | null; dateOfBirth: string | null },
  ): Promise<{ id: string; ownerId: string | null }> {
    if (data.patientId) {
      const row = isUuid(data.patientId) ? await findPatientOwner(this.#db, data.patientId) : undefined;
      if (!row) throw notFound('patientMessages.notFound');
      return row;
    }
    const rows = await findPatientsByNameAndBirth(this.#db, data, 2);
    if (rows.length !== 1) {
      // A look-up that finds nobody (or two people) is recorded: looking for patients this way is not browsing.
      await scopeOf(this.#db, caller).recordOutOfReach('emergency-access:request', {
        reason: 'no single patient matched the name and date of birth',
        matches: rows.length,
      });
      throw notFound('emergencyAccessMessages.noMatch');
    }
    return rows[0]!;
  }

  async #activeGrants(executor: Executor, providerId: string, patientId: string): Promise<OwnEmergencyGrant[]> {
    return executor
      .select({
        id: emergencyAccessGrants.id,
        patientId: emergencyAccessGrants.patientId,
        startedAt: emergencyAccessGrants.startedAt,
        endsAt: emergencyAccessGrants.endsAt,
      })
      .from(emergencyAccessGrants)
      .where(
        and(
          eq(emergencyAccessGrants.providerId, providerId),
          eq(emergencyAccessGrants.patientId, patientId),
          gt(emergencyAccessGrants.endsAt, new Date()),
          isNull(emergencyAccessGrants.endedAt),
        ),
      )
      .orderBy(desc(emergencyAccessGrants.endsAt))
      .limit(1);
  }

  #select(executor: Executor) {
    return executor
      .select({
        grant: emergencyAccessGrants,
        providerName: provider.name,
        providerEmail: provider.email,
        firstName: patient.firstName,
        lastName: patient.lastName,
        reviewedByName: reviewer.name,
        cursorTime: sql<string>`${emergencyAccessGrants.startedAt}::text`,
        activityCount: sql<number>`(SELECT count(*) FROM ${auditEntries}
          WHERE ${auditEntries.userId} = ${emergencyAccessGrants.providerId}::text
            AND ${auditEntries.timestamp} >= ${emergencyAccessGrants.startedAt}
            AND ${auditEntries.timestamp} <= coalesce(${emergencyAccessGrants.endedAt}, ${emergencyAccessGrants.endsAt})
            AND ${auditEntries.details} -> 'emergencyAccessIds' @> jsonb_build_array(${emergencyAccessGrants.id}::text))::int`,
      })
      .from(emergencyAccessGrants)
      .innerJoin(provider, eq(provider.id, emergencyAccessGrants.providerId))
      .innerJoin(patient, eq(patient.id, emergencyAccessGrants.patientId))
      .leftJoin(reviewer, eq(reviewer.id, emergencyAccessGrants.reviewedBy))
      .$dynamic();
  }

  #toView(r: SelectedGrant): EmergencyGrantView {
    return {
      row: emergencyAccessGrantsEncrypted.open(this.#keyring, r.grant),
      providerName: r.providerName,
      providerEmail: r.providerEmail,
      patientName: `${r.firstName} ${r.lastName}`,
      reviewedByName: r.reviewedByName,
      activityCount: r.activityCount,
    };
  }

  /** Every administrator's console reads the awaiting count again. */
  async #tellReviewers(tx: Executor): Promise<void> {
    const admins = await findActiveUsersWithRoles(tx, rolesWith('emergency-access:review:any'));
    await publishToUsers(
      tx,
      admins.map((a) => a.id),
      { type: 'emergency-access-changed' },
    );
  }
}
