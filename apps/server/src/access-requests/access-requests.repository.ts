import { and, desc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AccessRequestStatus } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { accessRequests, users } from '../db/schema.ts';

export type AccessRequestRow = typeof accessRequests.$inferSelect;
export type NewAccessRequestRow = typeof accessRequests.$inferInsert;

/** A request with the name of the administrator who reviewed it. */
export interface AccessRequestView extends AccessRequestRow {
  reviewedByName: string | null;
}

/** The summary the list shows: everything but the form. */
export type AccessRequestSummary = Omit<AccessRequestView, 'form' | 'clientIpHash'>;

/** Where a page ended: created_at as PostgreSQL wrote it (microseconds kept), id, and the status filter. */
export type AccessRequestCursor = readonly [string, string, string];

const reviewer = alias(users, 'reviewer');
const reviewerName = sql<string | null>`nullif(btrim(${reviewer.firstName} || ' ' || ${reviewer.lastName}), '')`;

export async function insertAccessRequest(tx: Executor, values: NewAccessRequestRow): Promise<AccessRequestRow> {
  const [row] = await tx.insert(accessRequests).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function findAccessRequest(
  tx: Executor,
  id: string,
  options: { lock?: boolean } = {},
): Promise<AccessRequestView | undefined> {
  if (options.lock)
    await tx.select({ id: accessRequests.id }).from(accessRequests).where(eq(accessRequests.id, id)).for('update');
  const [row] = await tx
    .select({ request: accessRequests, reviewedByName: reviewerName })
    .from(accessRequests)
    .leftJoin(reviewer, eq(reviewer.id, accessRequests.reviewedBy))
    .where(eq(accessRequests.id, id));
  return row ? { ...row.request, reviewedByName: row.reviewedByName } : undefined;
}

/** Newest first, optionally of one status; one extra row tells whether more follow. */
export async function listAccessRequestsPage(
  tx: Executor,
  options: { status: AccessRequestStatus | null; after: AccessRequestCursor | null; limit: number },
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
    rows: page.map(({ sortKey: _sortKey, ...row }) => row),
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

export async function updateAccessRequest(
  tx: Executor,
  id: string,
  values: Partial<NewAccessRequestRow>,
): Promise<void> {
  await tx
    .update(accessRequests)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(accessRequests.id, id));
}
