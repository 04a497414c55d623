import { eq } from 'drizzle-orm';
import { CreateDoctorInputSchema, MAX_PAGE_SIZE, PAGE_SIZE, PROVIDER_MESSAGES } from '@telehealth/shared';
import { appendAuditEntry } from '../audit/audit.repository.ts';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { badUserInput, forbidden, parseInput } from '../errors.ts';
import { CursorCodec } from '../patients/cursor.ts';
import type { Caller } from '../patients/patients.service.ts';
import { findProviderByAccount, insertProvider, listProvidersPage, type ProviderRow } from './providers.repository.ts';

/** Providers (the specification's Doctor). Everyone signed in may list them; administrators add them. */
export class ProvidersService {
  readonly #db: Database;
  readonly #cursors: CursorCodec;

  constructor(options: { db: Database; secret: string }) {
    this.#db = options.db;
    this.#cursors = new CursorCodec(`${options.secret}:providers`);
  }

  async list(caller: Caller, args: { limit?: number | null; nextToken?: string | null }) {
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    const page = await listProvidersPage(this.#db, { activeOnly: caller.user.role !== 'admin', after, limit });
    return { items: page.rows, nextToken: page.next ? this.#cursors.encode(page.next) : null };
  }

  /**
   * Adds a provider record and its provider account (without a password: the person sets one through the
   * invitation). An existing provider account with the same email is linked instead.
   */
  async create(caller: Caller, input: unknown): Promise<ProviderRow> {
    if (caller.user.role !== 'admin') {
      await appendAuditEntry(this.#db, {
        event: 'UNAUTHORIZED_ACCESS',
        level: 'WARNING',
        actor: caller.actor,
        url: caller.operation,
        details: { permission: 'providers.create' },
      });
      throw forbidden(PROVIDER_MESSAGES.cannotCreate);
    }
    const data = parseInput(CreateDoctorInputSchema, input);
    return this.#db.transaction(async (tx) => {
      const [existing] = await tx.select().from(users).where(eq(users.email, data.email));
      if (existing && existing.role !== 'provider')
        throw badUserInput(PROVIDER_MESSAGES.emailTaken, { fieldErrors: { email: PROVIDER_MESSAGES.emailTaken } });
      if (existing && (await findProviderByAccount(tx, existing.id))) {
        throw badUserInput(PROVIDER_MESSAGES.alreadyProvider, {
          fieldErrors: { email: PROVIDER_MESSAGES.alreadyProvider },
        });
      }
      const accountId = existing?.id ?? crypto.randomUUID();
      if (!existing) {
        await tx.insert(users).values({
          id: accountId,
          email: data.email,
          name: `${data.firstName} ${data.lastName}`,
          firstName: data.firstName,
          lastName: data.lastName,
          role: 'provider',
        });
      }
      const row = await insertProvider(tx, {
        accountId,
        firstName: data.firstName,
        lastName: data.lastName,
        email: data.email,
        specialty: data.specialty,
        experience: data.experience,
        phone: data.phone ?? null,
        bio: data.bio ?? null,
        isActive: data.isActive ?? true,
      });
      await appendAuditEntry(tx, {
        event: 'PROVIDER_CREATE',
        level: 'INFO',
        actor: caller.actor,
        url: caller.operation,
        details: { providerId: row.id, accountId, accountCreated: !existing },
      });
      return row;
    });
  }
}
