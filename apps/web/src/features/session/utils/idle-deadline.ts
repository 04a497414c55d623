import { IDLE_WARNING_MS } from '@telehealth/shared';

export interface IdleSchedule {
  /** Epoch ms at which the server ends the session if nothing else reaches it. */
  deadline: number;
  /** Epoch ms at which the "Are you still there?" warning opens. */
  warnAt: number;
}

export type IdlePhase = 'active' | 'warning' | 'expired';

/**
 * When the server will end an idle session and when to warn. The warning opens IDLE_WARNING_MS before the
 * deadline; with an idle timeout no longer than that (test set-ups use fractions of a minute) it opens
 * half-way, so the person is not warned the moment they act.
 */
export function computeIdleSchedule(
  lastActivityAt: number,
  idleMinutes: number,
  warningMs: number = IDLE_WARNING_MS,
): IdleSchedule {
  const idleMs = Math.max(0, idleMinutes * 60_000);
  const deadline = lastActivityAt + idleMs;
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
