import {
  ACCESS_REQUEST_MESSAGES,
  ACCESS_REQUEST_RATE_LIMIT,
  AccessRequestListFilterSchema,
  accessRequestLocale,
  ApproveAccessRequestInputSchema,
  DeclineAccessRequestInputSchema,
  experienceLowerBound,
  isHoneypotFilled,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  PatientAccessRequestSchema,
  ProviderAccessRequestSchema,
  type AccessRequestKind,
  type AccessRequestStatus,
  type PatientAccessRequestData,
  type ProviderAccessRequestData,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller, PublicCaller } from '../access/caller.ts';
import { actorScope, scopeOf } from '../access/scope.ts';
import type { InvitationInfo, InvitationsService } from '../auth/invitations.service.ts';
import type { Database, Executor } from '../db/client.ts';
import { badUserInput, fieldProblem, notFound, parseInput, validationFailed } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { MailService } from '../mail/mail.service.ts';
import { accessRequestReceivedMail, accessRequestWaitingMail } from '../mail/account-mails.ts';
import { CursorCodec } from '../db/cursor.ts';
import { insertPatient } from '../patients/patients.repository.ts';
import { isActiveProvider } from '../providers/providers.repository.ts';
import { rateLimited, type RateLimiter } from '../rate-limit/rate-limiter.ts';
import { createAccount } from '../users/accounts.ts';
import { findUserByEmail } from '../users/users.repository.ts';
import {
  countAccessRequestsByStatus,
  findAccessRequest,
  insertAccessRequest,
  listAccessRequestsPage,
  updateAccessRequest,
  type AccessRequestSummary,
  type AccessRequestView,
} from './access-requests.repository.ts';
import { isUuid } from '../db/ids.ts';

/** The stored form: every field as validated, without the honeypot and the site language. */
export type ProviderAccessRequestForm = Omit<ProviderAccessRequestData, 'website' | 'locale'>;
export type PatientAccessRequestForm = Omit<PatientAccessRequestData, 'website' | 'locale'>;

export interface AccessRequestDetail extends AccessRequestView {
  /** An account with the request's e-mail already exists (approval would be refused). */
  emailHasAccount: boolean;
  /** For an approved request: whether its account still waits for a password, and its open link's expiry. */
  invitation: InvitationInfo | null;
}

const SUBMISSIONS_BY_ADDRESS = 'access-request:address';

/**
 * Access requests from the public forms, and their review. Submitting stores the request, tells the
 * administrators one is waiting and acknowledges it to the requester, all without health data in any mail.
 * Approving creates the account (and the provider or patient record) and invites the person.
 */
export class AccessRequestsService {
  readonly #db: Database;
  readonly #mail: MailService;
  readonly #invitations: InvitationsService;
  readonly #limiter: RateLimiter;
  readonly #cursors: CursorCodec;
  readonly #rateLimit: { maxAttempts: number; windowMs: number };
  readonly #keyring: Keyring;

  constructor(options: {
    db: Database;
    mail: MailService;
    invitations: InvitationsService;
    limiter: RateLimiter;
    secret: string;
    keyring: Keyring;
    /** Submissions one address may make in an hour (ACCESS_REQUESTS_PER_HOUR). */
    maxPerHour?: number;
  }) {
    this.#rateLimit = {
      ...ACCESS_REQUEST_RATE_LIMIT,
      maxAttempts: options.maxPerHour ?? ACCESS_REQUEST_RATE_LIMIT.maxAttempts,
    };
    this.#db = options.db;
    this.#mail = options.mail;
    this.#invitations = options.invitations;
    this.#limiter = options.limiter;
    this.#keyring = options.keyring;
    this.#cursors = new CursorCodec(`${options.secret}:access-requests`);
  }

  async submit(caller: PublicCaller, kind: AccessRequestKind, input: unknown): Promise<{ message: string }> {
    // A bot is answered like a person, so it learns nothing; nothing is stored, counted or mailed.
    if (isHoneypotFilled(input)) return { message: ACCESS_REQUEST_MESSAGES.received };
    const data =
      kind === 'provider'
        ? parseInput(ProviderAccessRequestSchema, input)
        : parseInput(PatientAccessRequestSchema, input);
    const { website: _website, locale: _locale, ...form } = data;
    const language = accessRequestLocale(kind, data);
    const address = caller.ip ?? 'unknown';
    const scope = actorScope(caller.actor, caller.operation);
    const wait = await this.#db.transaction(async (tx) => {
      const refusedFor = await this.#limiter.consume(tx, SUBMISSIONS_BY_ADDRESS, address, this.#rateLimit);
      if (refusedFor > 0) return refusedFor;
      const row = await insertAccessRequest(
        tx,
        {
          kind,
          firstName: form.firstName,
          lastName: form.lastName,
          email: form.email,
          language,
          form,
          clientIpHash: this.#limiter.hash(address),
        },
        this.#keyring,
      );
      await scope.audit(tx, 'ACCESS_REQUEST_SUBMITTED', { accessRequestId: row.id, kind });
      const admins = await this.#mail.adminRecipients(tx);
      await this.#mail.enqueue(tx, [
        ...admins.map((admin) => ({
          to: admin.email,
          kind: 'access-request-waiting' as const,
          language: admin.language,
          content: accessRequestWaitingMail(this.#mail.context, admin.language, kind),
        })),
        {
          to: form.email,
          kind: 'access-request-received',
          language,
          content: accessRequestReceivedMail(this.#mail.context, language, kind),
        },
      ]);
      return 0;
    });
    if (wait > 0) {
      await scope.audit(this.#db, 'RATE_LIMITED', { bucket: SUBMISSIONS_BY_ADDRESS, kind }, { level: 'WARNING' });
      throw rateLimited(wait);
    }
    return { message: ACCESS_REQUEST_MESSAGES.received };
  }

  async list(caller: Caller, args: { status?: string | null; limit?: number | null; nextToken?: string | null }) {
    await authorize(this.#db, caller, 'access-request:review');
    const { status } = parseInput(AccessRequestListFilterSchema, { status: args.status ?? null });
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    // A token belongs to the list it came from; with another filter it would skip or repeat requests.
    if (after && after[2] !== (status ?? '')) throw badUserInput('patientMessages.invalidToken');
    return this.#db.transaction(async (tx) => {
      const page = await listAccessRequestsPage(tx, { status: status ?? null, after, limit }, this.#keyring);
      await scopeOf(this.#db, caller).audit(tx, 'ACCESS_REQUEST_VIEW', {
        accessRequestIds: page.rows.map((r) => r.id),
        page: after ? 'next' : 'first',
      });
      return {
        items: page.rows satisfies AccessRequestSummary[],
        nextToken: page.next ? this.#cursors.encode(page.next) : null,
      };
    });
  }

  async counts(caller: Caller): Promise<Record<AccessRequestStatus, number>> {
    await authorize(this.#db, caller, 'access-request:review');
    return countAccessRequestsByStatus(this.#db);
  }

  async get(caller: Caller, id: string): Promise<AccessRequestDetail> {
    await authorize(this.#db, caller, 'access-request:review');
    return this.#db.transaction(async (tx) => {
      const row = isUuid(id) ? await findAccessRequest(tx, id, this.#keyring) : undefined;
      if (!row) throw notFound('accessRequestMessages.notFound');
      await scopeOf(this.#db, caller).audit(tx, 'ACCESS_REQUEST_VIEW', { accessRequestIds: [row.id], kind: row.kind });
      return this.#detail(tx, row);
    });
  }

  /**
   * Approves a new request: creates the account with the request's role (without a password), the provider
   * record or the patient record (owned by the chosen provider, linked to the account), and invites the person.
   */
  async approve(caller: Caller, input: unknown): Promise<AccessRequestDetail> {
    await authorize(this.#db, caller, 'access-request:review');
    const { id, ownerProviderId } = parseInput(ApproveAccessRequestInputSchema, input);
    if (!isUuid(id)) throw notFound('accessRequestMessages.notFound');
    const scope = scopeOf(this.#db, caller);
    const detail = await this.#db.transaction(async (tx) => {
      const request = await findAccessRequest(tx, id, this.#keyring, { lock: true });
      if (!request) throw notFound('accessRequestMessages.notFound');
      if (request.status !== 'new') throw badUserInput('accessRequestMessages.alreadyReviewed');
      if (request.kind === 'patient' && (!ownerProviderId || !(await isActiveProvider(tx, ownerProviderId)))) {
        throw validationFailed([fieldProblem('ownerProviderId', 'accessRequestMessages.chooseProvider')]);
      }
      if (await findUserByEmail(tx, request.email)) throw badUserInput('accessRequestMessages.accountExists');

      const person = {
        email: request.email,
        firstName: request.firstName,
        lastName: request.lastName,
        language: request.language === 'es' ? ('es' as const) : ('en' as const),
        emailVerified: false,
      };
      const by = { actor: caller.actor, url: caller.operation, details: { accessRequestId: id } };
      let accountId: string;
      if (request.kind === 'provider') {
        const form = request.form as ProviderAccessRequestForm;
        const profile = {
          specialty: form.specialty,
          experience: experienceLowerBound(form.yearsOfExperience),
          phone: form.phone,
        };
        ({ id: accountId } = await createAccount(tx, { ...person, role: 'provider', provider: profile }, by));
      } else {
        ({ id: accountId } = await createAccount(tx, { ...person, role: 'patient' }, by));
        const form = request.form as PatientAccessRequestForm;
        const patient = await insertPatient(
          tx,
          {
            firstName: request.firstName,
            lastName: request.lastName,
            email: request.email,
            dateOfBirth: form.dateOfBirth,
            phone: form.phone,
            street: form.address ?? null,
            city: form.city ?? null,
            state: form.state ?? null,
            zipCode: form.zipCode ?? null,
            emergencyContactName: form.emergencyContactName ?? null,
            emergencyContactPhone: form.emergencyContactPhone ?? null,
            insuranceProvider: form.insuranceProvider ?? null,
            reasonForCare: form.reasonForInterest,
            allergies: form.allergies ?? null,
            currentMedications: form.currentMedications ?? null,
            medicalHistory: form.currentConditions ?? null,
            ownerId: ownerProviderId ?? null,
            accountId,
          },
          this.#keyring,
        );
        await scope.audit(tx, 'PATIENT_CREATE', { patientIds: [patient.id], accessRequestId: id });
      }
      await updateAccessRequest(
        tx,
        id,
        {
          status: 'approved',
          reviewedBy: caller.user.id,
          reviewedAt: new Date(),
          accountId,
        },
        this.#keyring,
      );
      await scope.audit(tx, 'ACCESS_REQUEST_APPROVED', { accessRequestId: id, kind: request.kind, accountId });
      await this.#invitations.issue(tx, {
        userId: accountId,
        email: request.email,
        language: request.language === 'es' ? 'es' : 'en',
        reason: 'approved',
        accessRequestId: id,
        actor: caller.actor,
        url: caller.operation,
      });
      const updated = await findAccessRequest(tx, id, this.#keyring);
      if (!updated) throw new Error('approved request vanished');
      return this.#detail(tx, updated);
    });
    return detail;
  }

  /** Declines a new request with a reason, which stays with the request for administrators. */
  async decline(caller: Caller, input: unknown): Promise<AccessRequestDetail> {
    await authorize(this.#db, caller, 'access-request:review');
    const { id, reason } = parseInput(DeclineAccessRequestInputSchema, input);
    if (!isUuid(id)) throw notFound('accessRequestMessages.notFound');
    return this.#db.transaction(async (tx) => {
      const request = await findAccessRequest(tx, id, this.#keyring, { lock: true });
      if (!request) throw notFound('accessRequestMessages.notFound');
      if (request.status !== 'new') throw badUserInput('accessRequestMessages.alreadyReviewed');
      await updateAccessRequest(
        tx,
        id,
        {
          status: 'declined',
          declineReason: reason,
          reviewedBy: caller.user.id,
          reviewedAt: new Date(),
        },
        this.#keyring,
      );
      // The reason is the administrator's free text and may describe the person: it stays out of the audit trail.
      await scopeOf(this.#db, caller).audit(tx, 'ACCESS_REQUEST_DECLINED', { accessRequestId: id, kind: request.kind });
      const updated = await findAccessRequest(tx, id, this.#keyring);
      if (!updated) throw new Error('declined request vanished');
      return this.#detail(tx, updated);
    });
  }

  async #detail(tx: Executor, row: AccessRequestView): Promise<AccessRequestDetail> {
    const account = await findUserByEmail(tx, row.email);
    const invitation = row.accountId
      ? ((await this.#invitations.states(tx, [row.accountId])).get(row.accountId) ?? null)
      : null;
    return { ...row, emailHasAccount: account !== undefined, invitation };
  }
}
