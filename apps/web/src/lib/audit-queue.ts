import {
  AUDIT_BATCH_HEADER,
  AUDIT_BATCH_MAX_ENTRIES,
  AUDIT_CRITICAL_HEADER,
  AUDIT_CRITICAL_PATH,
  AUDIT_LOGS_PATH,
  AUDIT_QUEUE_CRITICAL_KEEP,
  AUDIT_QUEUE_FLUSH_MS,
  AUDIT_QUEUE_MAX,
  AUDIT_QUEUE_REQUEUE_AFTER_EXCEPTION,
  isCriticalEvent,
  type AuditLevel,
  type ClientAuditEvent,
} from '@telehealth/shared';

/** One entry as the browser queues and sends it (the server adds who, from the session). */
export interface QueuedAuditEntry {
  event: ClientAuditEvent;
  level: AuditLevel;
  timestamp: string;
  sessionId: string;
  url?: string;
  referrer?: string;
  details?: Record<string, unknown>;
}

/** What the queue sends with: `fetch` in the browser, a fake in tests. */
export type AuditSend = (path: string, headers: Record<string, string>, body: unknown) => Promise<{ status: number }>;

/** 16 random bytes in hex: the specification's request identifiers. */
export function randomHexId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The browser's audit queue, with the specification's rules: entries are queued and sent in batches to
 * POST /api/audit/logs every 30 seconds and when the browser comes back online; critical entries are also sent at
 * once to POST /api/audit/critical (and queued only if that fails). At most 1000 entries are queued: beyond that
 * only critical entries are kept, the newest 500. A batch the server refuses for a passing reason (429, 5xx) goes
 * back to the queue; after a send that failed with an exception (no answer) only the newest 100 of it go back.
 * A batch the server refuses for good (signed out, a bad body) is dropped: sending it again cannot help.
 * The server stores these as the browser's reports (decision 034), never as its own record.
 */
export class AuditQueue {
  #entries: QueuedAuditEntry[] = [];
  #flushing: Promise<void> | null = null;
  readonly #send: AuditSend;

  constructor(send: AuditSend) {
    this.#send = send;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** A copy of what is queued, oldest first. */
  snapshot(): QueuedAuditEntry[] {
    return [...this.#entries];
  }

  /** Queues an entry; a critical one is sent at once as well (queued only if that send fails). */
  record(entry: QueuedAuditEntry): Promise<void> {
    if (!isCriticalEvent(entry.event)) {
      this.#enqueue([entry]);
      return Promise.resolve();
    }
    return this.#send(AUDIT_CRITICAL_PATH, { [AUDIT_CRITICAL_HEADER]: 'true' }, entry).then(
      (response) => {
        if (isPassing(response.status)) this.#enqueue([entry]);
      },
      () => {
        this.#enqueue([entry]);
      },
    );
  }

  /** Sends everything queued, a batch at a time; one flush at a time. */
  flush(): Promise<void> {
    this.#flushing ??= this.#flushAll().finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  async #flushAll(): Promise<void> {
    while (this.#entries.length > 0) {
      const batch = this.#entries.splice(0, AUDIT_BATCH_MAX_ENTRIES);
      const batchId = randomHexId();
      let status: number;
      try {
        ({ status } = await this.#send(
          AUDIT_LOGS_PATH,
          { [AUDIT_BATCH_HEADER]: batchId },
          { logs: batch, batchId, timestamp: new Date().toISOString() },
        ));
      } catch {
        // No answer (offline, the connection dropped): keep only the newest part; the next flush tries again.
        this.#requeue(batch.slice(-AUDIT_QUEUE_REQUEUE_AFTER_EXCEPTION));
        return;
      }
      if (status >= 200 && status < 300) continue;
      // 'Audit log send failed: {status}': the batch returns to the queue when trying later can help.
      if (isPassing(status)) this.#requeue(batch);
      return;
    }
  }

  #requeue(batch: QueuedAuditEntry[]): void {
    this.#entries = [...batch, ...this.#entries];
    this.#enforceCap();
  }

  #enqueue(entries: QueuedAuditEntry[]): void {
    this.#entries.push(...entries);
    this.#enforceCap();
  }

  #enforceCap(): void {
    if (this.#entries.length <= AUDIT_QUEUE_MAX) return;
    this.#entries = this.#entries.filter((e) => isCriticalEvent(e.event)).slice(-AUDIT_QUEUE_CRITICAL_KEEP);
  }

  /** Flushes every 30 seconds and whenever the browser comes back online; answers a function that stops both. */
  start(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
    const onOnline = () => {
      void this.flush();
    };
    const timer = setInterval(onOnline, AUDIT_QUEUE_FLUSH_MS);
    target.addEventListener('online', onOnline);
    return () => {
      clearInterval(timer);
      target.removeEventListener('online', onOnline);
    };
  }
}

/** A refusal that may pass: too many requests, or a fault of the server. */
function isPassing(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Sends with the session cookie; the custom header also keeps cross-site forms from sending it. */
export const fetchAuditSend: AuditSend = async (path, headers, body) => {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    keepalive: true,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status };
};

const SESSION_KEY = 'audit-session-id';

/** The audit session id, kept in session storage (the specification's). */
export function auditSessionId(): string {
  try {
    const existing = sessionStorage.getItem(SESSION_KEY);
    if (existing) return existing;
    const id = randomHexId();
    sessionStorage.setItem(SESSION_KEY, id);
    return id;
  } catch {
    return randomHexId();
  }
}

/** What the specification adds to each entry's details: viewport, time zone and language. */
export function browserDetails(): Record<string, unknown> {
  return {
    viewport: `${window.innerWidth}x${window.innerHeight}`,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    language: navigator.language,
  };
}
