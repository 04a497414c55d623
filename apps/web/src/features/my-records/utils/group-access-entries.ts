import type { AccessEntry } from '../api/my-records-api.ts';

/** How close together repeated accesses of one kind by one person are shown as one row. */
export const ACCESS_GROUP_WINDOW_MS = 10 * 60_000;

export interface AccessGroup {
  /** The newest entry of the group (its id keys the row). */
  latest: AccessEntry;
  /** When the first (oldest) entry of the group happened. */
  since: string;
  count: number;
}

/**
 * Folds the access log (newest first) into rows: consecutive entries by the same person (name and role) of the same
 * kind, within ACCESS_GROUP_WINDOW_MS of the row's newest one, become one row with their count and the time of the
 * first. A screen that reloads its data (a message thread after a live update) records every reading; the patient
 * still sees each of them counted, without a page of identical lines.
 */
export function groupAccessEntries(entries: readonly AccessEntry[]): AccessGroup[] {
  const groups: AccessGroup[] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (
      last &&
      last.latest.kind === entry.kind &&
      last.latest.actorName === entry.actorName &&
      last.latest.actorRole === entry.actorRole &&
      Date.parse(last.latest.timestamp) - Date.parse(entry.timestamp) <= ACCESS_GROUP_WINDOW_MS
    ) {
      last.count += 1;
      last.since = entry.timestamp;
    } else {
      groups.push({ latest: entry, since: entry.timestamp, count: 1 });
    }
  }
  return groups;
}
