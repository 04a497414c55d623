/**
 * Every PostgreSQL advisory lock the server takes, in one place, so that no two uses share a key by accident (the
 * demo practice's seeding once took the audit sealer's). Each instance of every version must use the same key for
 * the same lock: change a value only with a decision record that says how a rolling start-up stays safe.
 *
 * PostgreSQL keeps one-key locks (`pg_advisory_lock(bigint)`) and two-key locks (`pg_advisory_lock(int, int)`)
 * apart: a two-key lock here has a class as its first key and a hash of what it guards as its second.
 */
export const ADVISORY_LOCKS = {
  /** Start-up writes (migrations, the job queue's schema, built-in rows, demo seeding) and restores (decision 014). */
  startUp: 727_001,
  /** One audit sealer at a time across instances (decision 015). */
  auditSealer: 727_003,
  /** The stored-text review at start (decision 022). */
  storedTextReview: 727_022,
  /** Held by the process writing a backup for the run's life; dies with it (decision 037). */
  backup: 727_037,
  /** Practice settings' writes (decision 032). */
  settings: 4_032_032,
  /** The demo practice's seeding (under the start-up lock too, decision 002). */
  demoPractice: 727_050,
  /** The demo schedule's seeding (under the start-up lock too, decision 002). */
  demoSchedule: 727_051,
  /** The demo practice's clinical history (under the start-up lock too, decision 049). */
  demoClinical: 727_052,
} as const;

/** Two-key locks: the class, with a hash of what it guards as the second key. */
export const ADVISORY_LOCK_CLASSES = {
  /** A rate-limit bucket (decision 008). */
  rateLimit: 727_004,
  /** A running worker pool's presence, second key its pool id (decision 014). */
  workerPresence: 727_031,
  /** One request per account and Idempotency-Key at a time (decision 044). */
  idempotencyKey: 727_044,
  /** A provider's waitlist offers (decision 025). */
  waitlistOffer: 727_100,
  /** A provider's waitlist claims (decision 025). */
  waitlistClaim: 727_101,
  /** One appointment's video visit: its room, guests and recordings (decision 026). */
  videoVisit: 727_200,
} as const;
