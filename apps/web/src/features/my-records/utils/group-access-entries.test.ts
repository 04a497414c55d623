import { describe, expect, it } from 'vitest';
import type { AccessEntry } from '../api/my-records-api.ts';
import { groupAccessEntries } from './group-access-entries.ts';

let nextId = 1;
function entry(minute: number, kind: string, actorName = 'Maya Okafor', actorRole = 'provider'): AccessEntry {
  const timestamp = new Date(Date.UTC(2026, 10, 24, 15, 0) - minute * 60_000).toISOString();
  return { id: String(nextId++), timestamp, kind, actorName, actorRole };
}

describe('groupAccessEntries', () => {
  it('counts repeated accesses of one kind by one person close together as one row, since the first', () => {
    const entries = [entry(0, 'messagesViewed'), entry(1, 'messagesViewed'), entry(4, 'messagesViewed')];
    const groups = groupAccessEntries(entries);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ latest: entries[0], since: entries[2]!.timestamp, count: 3 });
  });

  it('keeps apart another kind, another person, and the same access later than the window', () => {
    const entries = [
      entry(0, 'messagesViewed'),
      entry(1, 'chartViewed'),
      entry(2, 'chartViewed', 'Daniel Reyes'),
      entry(3, 'chartViewed', 'Daniel Reyes', 'admin'),
      entry(4, 'messagesViewed'),
      entry(30, 'messagesViewed'),
    ];
    expect(groupAccessEntries(entries).map((g) => g.count)).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
