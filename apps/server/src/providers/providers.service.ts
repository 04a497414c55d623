import { CreateDoctorInputSchema, hasPermission, MAX_PAGE_SIZE, PAGE_SIZE } from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import type { InvitationInfo, InvitationsService } from '../auth/invitations.service.ts';
import type { Database, Executor } from '../db/client.ts';
import { fieldError, parseInput } from '../errors.ts';
import { CursorCodec } from '../db/cursor.ts';
import { createAccount } from '../users/accounts.ts';
import { findUserByEmail } from '../users/users.repository.ts';
import { findProviderById, listProvidersPage, type ProviderRow } from './providers.repository.ts';

/** A provider as the API answers it; administrators also learn whether the account still waits for a password. */
export interface ProviderView extends ProviderRow {
  /** Administrators only (null for everyone else). */
  invitation: InvitationInfo | null;
}

/** Providers (the specification's Doctor). Everyone signed in may list them; administrators add them. */
export class ProvidersService {
  readonly #db: Database;
  readonly #cursors: CursorCodec;
  readonly #invitations: InvitationsService;

  constructor(options: { db: Database; secret: string; invitations: InvitationsService }) {
    this.#db = options.db;
    this.#cursors = new CursorCodec(`${options.secret}:providers`);
    this.#invitations = options.invitations;
  }

  async list(caller: Caller, args: { limit?: number | null; nextToken?: string | null }) {
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    await authorize(this.#db, caller, 'provider:read');
    // Those who manage accounts also see inactive providers and whether an account still waits for a password.
    const manages = hasPermission(caller.user.role, 'user:manage:any');
    const page = await listProvidersPage(this.#db, { activeOnly: !manages, after, limit });
    return {
      items: await this.#withInvitations(this.#db, manages, page.rows),
      nextToken: page.next ? this.#cursors.encode(page.next) : null,
    };
  }

  /**
   * Adds a provider: their account (without a password: the person sets one through the invitation, which is
   * e-mailed in the same transaction unless `sendInvitation` is false) and its provider record, one id for both.
   * An address that already has an account is refused: every provider account has its provider record already.
   */
  async create(caller: Caller, input: unknown): Promise<ProviderView> {
    await authorize(this.#db, caller, 'provider:create');
    const data = parseInput(CreateDoctorInputSchema, input);
    const created = await this.#db.transaction(async (tx) => {
      const existing = await findUserByEmail(tx, data.email);
      if (existing) {
        const key = (await findProviderById(tx, existing.id)) ? 'alreadyProvider' : 'emailTaken';
        throw fieldError('email', `providerMessages.${key}`);
      }
      const { id, provider } = await createAccount(
        tx,
        {
          email: data.email,
          firstName: data.firstName,
          lastName: data.lastName,
          role: 'provider',
          provider: {
            specialty: data.specialty,
            experience: data.experience,
            phone: data.phone ?? null,
            bio: data.bio ?? null,
            isActive: data.isActive ?? true,
          },
        },
        { actor: caller.actor, url: caller.operation },
      );
      const invite = data.sendInvitation ?? true;
      if (invite) {
        await this.#invitations.issue(tx, {
          userId: id,
          email: data.email,
          language: 'en',
          reason: 'added',
          accessRequestId: null,
          actor: caller.actor,
          url: caller.operation,
        });
      }
      const [view] = await this.#withInvitations(tx, true, [provider]);
      if (!view) throw new Error('created provider vanished');
      return view;
    });
    return created;
  }

  async #withInvitations(tx: Executor, withStates: boolean, rows: ProviderRow[]): Promise<ProviderView[]> {
    if (!withStates) return rows.map((row) => ({ ...row, invitation: null }));
    const states = await this.#invitations.states(
      tx,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({ ...row, invitation: states.get(row.id) ?? null }));
  }
}
