import { IDLE_WARNING_MS } from '@telehealth/shared';

export interface IdleSchedule {
  /** Epoch ms at which the server ends the session if nothing else reaches it. */
  deadline: number;
  /** Epoch ms at which the "Are you still there?" warning opens. */
  warnAt: number;
}

export type IdlePhase = 'active' | 'warning' | 'expired';

/** The server moves a session's deadline at most this often (apps/server auth.service `resolveSession`). */
export const SERVER_REFRESH_MAX_MS = 10_000;

/**
 * How much earlier than "last request + idle time" the server's deadline can be. The server writes the sliding
 * deadline at most once per min(10 s, idle / 20), so a request that comes within that interval of the last
 * write does not move it: the deadline may be as old as that interval.
 */
export function serverRefreshMarginMs(idleMs: number): number {
  return Math.max(0, Math.min(SERVER_REFRESH_MAX_MS, idleMs / 20));
}

/**
 * When the server will end an idle session and when to warn. The deadline is the last request plus the idle
 * time, less the server's refresh margin (never later than the server's own). The warning opens
 * IDLE_WARNING_MS before the deadline; with an idle timeout no longer than that (test set-ups use fractions
 * of a minute) it opens half-way, so the person is not warned the moment they act.
 */
export function computeIdleSchedule(
  lastActivityAt: number,
  idleMinutes: number,
  warningMs: number = IDLE_WARNING_MS,
): IdleSchedule {
  const idleMs = Math.max(0, idleMinutes * 60_000);
  const deadline = lastActivityAt + idleMs - serverRefreshMarginMs(idleMs);
  const lead = idleMs > warningMs ? warningMs : idleMs / 2;
  return { deadline, warnAt: deadline - lead };
}

/** Compared against the wall clock, never by counting ticks, so a sleeping tab wakes in the right phase. */
export function getIdlePhase(now: number, schedule: IdleSchedule): IdlePhase {
  if (now >= schedule.deadline) return 'expired';
  if (now >= schedule.warnAt) return 'warning';
  return 'active';
}

/** Whole seconds left before the deadline, never negative. */
export function secondsUntil(now: number, deadline: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** 75 → "1:15", 5 → "0:05". */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}
