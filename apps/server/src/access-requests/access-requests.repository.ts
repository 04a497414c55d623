import { randomUUID } from 'node:crypto';
import { and, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { AccessRequestStatus } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { accessRequests } from './access-requests.table.ts';
import { accessRequestsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { userAccounts } from '../users/users.repository.ts';

type StoredAccessRequest = typeof accessRequests.$inferSelect;
/** A request as the service sees it: the form is the validated object (stored as encrypted JSON). */
export type AccessRequestRow = Omit<StoredAccessRequest, 'form'> & { form: unknown };
export type NewAccessRequestRow = Omit<typeof accessRequests.$inferInsert, 'form'> & { form: unknown };

/** A request with the name of the administrator who reviewed it. */
export interface AccessRequestView extends AccessRequestRow {
  reviewedByName: string | null;
}

/** The summary the list shows: everything but the form. */
export type AccessRequestSummary = Omit<AccessRequestView, 'form' | 'clientIpHash'>;

/** Where a page ended: created_at as PostgreSQL wrote it (microseconds kept), id, and the status filter. */
export type AccessRequestCursor = readonly [string, string, string];

const reviewer = userAccounts('reviewer');
const reviewerName = sql<string | null>`nullif(btrim(${reviewer.firstName} || ' ' || ${reviewer.lastName}), '')`;

/** The form and the decline reason are stored encrypted, so reads and writes of them take the keyring. */
export async function insertAccessRequest(
  tx: Executor,
  values: NewAccessRequestRow,
  keyring: Keyring,
): Promise<AccessRequestRow> {
  const id = values.id ?? randomUUID();
  const sealed = accessRequestsEncrypted.seal(keyring, id, { ...values, id, form: JSON.stringify(values.form) });
  const [row] = await tx.insert(accessRequests).values(sealed).returning();
  if (!row) throw new Error('insert returned no row');
  return openAccessRequest(keyring, row);
}

/** The decline reason decrypted when first read; the form decrypted and parsed now. */
function openAccessRequest<T extends StoredAccessRequest>(
  keyring: Keyring,
  row: T,
): Omit<T, 'form'> & { form: unknown } {
  const form: unknown = JSON.parse(accessRequestsEncrypted.decryptValue(keyring, row.id, 'form', row.form));
  return accessRequestsEncrypted.open(keyring, { ...row, form });
}

export async function findAccessRequest(
  tx: Executor,
  id: string,
  keyring: Keyring,
  options: { lock?: boolean } = {},
): Promise<AccessRequestView | undefined> {
  if (options.lock)
    await tx.select({ id: accessRequests.id }).from(accessRequests).where(eq(accessRequests.id, id)).for('update');
  const [row] = await tx
    .select({ request: accessRequests, reviewedByName: reviewerName })
    .from(accessRequests)
    .leftJoin(reviewer, eq(reviewer.id, accessRequests.reviewedBy))
    .where(eq(accessRequests.id, id));
  return row ? openAccessRequest(keyring, { ...row.request, reviewedByName: row.reviewedByName }) : undefined;
}

/** Newest first, optionally of one status; one extra row tells whether more follow. */
export async function listAccessRequestsPage(
  tx: Executor,
  options: { status: AccessRequestStatus | null; after: AccessRequestCursor | null; limit: number },
  keyring: Keyring,
): Promise<{ rows: AccessRequestSummary[]; next: AccessRequestCursor | null }> {
  const conditions: SQL[] = [];
  if (options.status) conditions.push(eq(accessRequests.status, options.status));
  if (options.after) {
    conditions.push(
      sql`(${accessRequests.createdAt}, ${accessRequests.id}) < (${options.after[0]}::timestamptz, ${options.after[1]}::uuid)`,
    );
  }
  const { form: _form, clientIpHash: _ip, ...summaryColumns } = getTableColumns(accessRequests);
  const rows = await tx
    .select({
      ...summaryColumns,
      reviewedByName: reviewerName,
      sortKey: sql<string>`${accessRequests.createdAt}::text`,
    })
    .from(accessRequests)
    .leftJoin(reviewer, eq(reviewer.id, accessRequests.reviewedBy))
    .where(and(...conditions))
    .orderBy(desc(accessRequests.createdAt), desc(accessRequests.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    rows: page.map(({ sortKey: _sortKey, ...row }) => accessRequestsEncrypted.open(keyring, row)),
    next: rows.length > options.limit && last ? [last.sortKey, last.id, options.status ?? ''] : null,
  };
}

export async function countAccessRequestsByStatus(tx: Executor): Promise<Record<AccessRequestStatus, number>> {
  const rows = await tx
    .select({ status: accessRequests.status, n: sql<number>`count(*)::int` })
    .from(accessRequests)
    .groupBy(accessRequests.status);
  const counts: Record<AccessRequestStatus, number> = { new: 0, approved: 0, declined: 0 };
  for (const row of rows) if (row.status in counts) counts[row.status as AccessRequestStatus] = row.n;
  return counts;
}

/** Review fields only: the form never changes after submission. */
export async function updateAccessRequest(
  tx: Executor,
  id: string,
  values: Partial<Omit<NewAccessRequestRow, 'form'>>,
  keyring: Keyring,
): Promise<void> {
  await tx
    .update(accessRequests)
    .set({ ...accessRequestsEncrypted.seal(keyring, id, values), updatedAt: new Date() })
    .where(eq(accessRequests.id, id));
}
