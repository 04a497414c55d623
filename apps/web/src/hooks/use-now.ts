import { useSyncExternalStore } from 'react';

// One clock for every component that shows the time or counts down: a single one-second interval while
// anything listens, and an immediate tick when the tab becomes visible again (background tabs throttle
// timers, so a woken tab must not show a stale time for a second).

const TICK_MS = 1000;

let now = Date.now();
const listeners = new Set<() => void>();
let timer: number | undefined;

function tick(): void {
  now = Date.now();
  for (const listener of listeners) listener();
}

function onVisibilityChange(): void {
  if (document.visibilityState === 'visible') tick();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // A new listener starts from the current time, not from the last tick.
  now = Date.now();
  if (listeners.size === 1) {
    timer = window.setInterval(tick, TICK_MS);
    document.addEventListener('visibilitychange', onVisibilityChange);
    window.addEventListener('focus', tick);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibilityChange);
      window.removeEventListener('focus', tick);
    }
  };
}

function subscribeNever(): () => void {
  return () => undefined;
}

function getNow(): number {
  return now;
}

/** The wall-clock time in epoch ms, refreshed every second while `enabled`. */
export function useNow(enabled = true): number {
  return useSyncExternalStore(enabled ? subscribe : subscribeNever, getNow);
}
