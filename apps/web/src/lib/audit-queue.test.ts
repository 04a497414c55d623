import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_QUEUE_CRITICAL_KEEP, AUDIT_QUEUE_FLUSH_MS, AUDIT_QUEUE_MAX } from '@telehealth/shared';

import { AuditQueue, type AuditSend, type QueuedAuditEntry } from './audit-queue.ts';

function entry(event: QueuedAuditEntry['event'], n: number): QueuedAuditEntry {
  return { event, level: 'INFO', timestamp: new Date(0).toISOString(), sessionId: 's', details: { n } };
}

/** A fake server: answers each call with the next status (or throws for 'throw'), and records the calls. */
function fakeSend(...answers: (number | 'throw')[]) {
  const calls: { path: string; headers: Record<string, string>; body: { logs?: QueuedAuditEntry[] } }[] = [];
  const send: AuditSend = (path, headers, body) => {
    calls.push({ path, headers, body: body as { logs?: QueuedAuditEntry[] } });
    const answer = answers.length > 1 ? answers.shift()! : (answers[0] ?? 202);
    return answer === 'throw' ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve({ status: answer });
  };
  return { send, calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the audit queue', () => {
  it('keeps at most 1000 entries; beyond that only critical ones, the newest 500', async () => {
    const { send } = fakeSend('throw');
    const queue = new AuditQueue(send);
    for (let i = 0; i < 600; i++) await queue.record(entry('UNAUTHORIZED_ACCESS', i));
    for (let i = 0; i < AUDIT_QUEUE_MAX - 600; i++) await queue.record(entry('PAGE_VIEW', i));
    expect(queue.size).toBe(AUDIT_QUEUE_MAX);
    await queue.record(entry('PAGE_VIEW', 9999));
    const kept = queue.snapshot();
    expect(kept).toHaveLength(AUDIT_QUEUE_CRITICAL_KEEP);
    expect(kept.every((e) => e.event === 'UNAUTHORIZED_ACCESS')).toBe(true);
    // The newest 500 of the 600 critical ones.
    expect(kept[0]?.details).toEqual({ n: 100 });
    expect(kept.at(-1)?.details).toEqual({ n: 599 });
  });

  it('sends a critical entry at once to /api/audit/critical, queueing it only if that fails', async () => {
    const { send, calls } = fakeSend(202, 503);
    const queue = new AuditQueue(send);
    await queue.record(entry('SECURITY_VIOLATION', 1));
    expect(calls[0]).toMatchObject({ path: '/api/audit/critical', headers: { 'x-audit-critical': 'true' } });
    expect(queue.size).toBe(0);
    await queue.record(entry('SECURITY_VIOLATION', 2));
    expect(queue.size).toBe(1);
    await queue.record(entry('PAGE_VIEW', 3));
    expect(calls).toHaveLength(2);
  });

  it('flushes in batches of 100 with the X-Audit-Batch header, batchId and timestamp', async () => {
    const { send, calls } = fakeSend(202);
    const queue = new AuditQueue(send);
    for (let i = 0; i < 250; i++) await queue.record(entry('PAGE_VIEW', i));
    await queue.flush();
    expect(calls.map((c) => c.body.logs?.length)).toEqual([100, 100, 50]);
    const first = calls[0]!;
    expect(first.path).toBe('/api/audit/logs');
    expect(first.headers['x-audit-batch']).toMatch(/^[0-9a-f]{32}$/);
    const body = first.body as { batchId?: string; timestamp?: string };
    expect(body.batchId).toBe(first.headers['x-audit-batch']);
    expect(Number.isNaN(Date.parse(body.timestamp ?? ''))).toBe(false);
    expect(queue.size).toBe(0);
  });

  it('puts a batch back on 429 or 5xx, keeps only the newest 100 after an exception, drops it on 401', async () => {
    const server = fakeSend(503);
    const queue = new AuditQueue(server.send);
    for (let i = 0; i < 150; i++) await queue.record(entry('PAGE_VIEW', i));
    await queue.flush();
    expect(queue.size).toBe(150);

    const offline = new AuditQueue(fakeSend('throw').send);
    for (let i = 0; i < 150; i++) await offline.record(entry('PAGE_VIEW', i));
    await offline.flush();
    // The first batch of 100 failed: its newest 100 are all of it; the 50 not sent stay.
    expect(offline.size).toBe(150);
    const small = new AuditQueue(fakeSend('throw').send);
    for (let i = 0; i < 3; i++) await small.record(entry('PAGE_VIEW', i));
    await small.flush();
    expect(small.size).toBe(3);

    const signedOut = new AuditQueue(fakeSend(401).send);
    await signedOut.record(entry('PAGE_VIEW', 1));
    await signedOut.flush();
    expect(signedOut.size).toBe(0);
  });

  it('flushes when the browser comes back online and every 30 seconds, until stopped', async () => {
    vi.useFakeTimers();
    const { send, calls } = fakeSend(202);
    const queue = new AuditQueue(send);
    const target = new EventTarget();
    const stop = queue.start(target);
    await queue.record(entry('PAGE_VIEW', 1));
    target.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await queue.record(entry('PAGE_VIEW', 2));
    await vi.advanceTimersByTimeAsync(AUDIT_QUEUE_FLUSH_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    stop();
    await queue.record(entry('PAGE_VIEW', 3));
    target.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(AUDIT_QUEUE_FLUSH_MS * 2);
    expect(calls).toHaveLength(2);
    expect(queue.size).toBe(1);
  });
});
