import { IDLE_WARNING_MS } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import {
  computeIdleSchedule,
  formatCountdown,
  getIdlePhase,
  secondsUntil,
  serverRefreshMarginMs,
} from './idle-deadline.ts';

const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);

describe('serverRefreshMarginMs', () => {
  it('is the server refresh interval: a twentieth of the idle time, at most 10 seconds', () => {
    expect(serverRefreshMarginMs(15 * 60_000)).toBe(10_000);
    expect(serverRefreshMarginMs(200_000)).toBe(10_000);
    expect(serverRefreshMarginMs(60_000)).toBe(3_000);
    expect(serverRefreshMarginMs(6_000)).toBe(300);
    expect(serverRefreshMarginMs(0)).toBe(0);
  });
});

describe('computeIdleSchedule', () => {
  it('puts the deadline sessionIdleMinutes after the last request, less the server margin, and warns before it', () => {
    const schedule = computeIdleSchedule(T0, 15);
    // The server may have last moved its deadline up to 10 s before our last request.
    expect(schedule.deadline).toBe(T0 + 15 * 60_000 - 10_000);
    expect(schedule.warnAt).toBe(schedule.deadline - IDLE_WARNING_MS);
  });

  it('is never later than the deadline of a server that last wrote it a full refresh interval earlier', () => {
    const idleMinutes = 15;
    const lastServerWrite = T0 - 10_000;
    expect(computeIdleSchedule(T0, idleMinutes).deadline).toBeLessThanOrEqual(lastServerWrite + idleMinutes * 60_000);
  });

  it('accepts fractional minutes', () => {
    const schedule = computeIdleSchedule(T0, 1.5);
    expect(schedule.deadline).toBe(T0 + 90_000 - 4_500);
    expect(schedule.warnAt).toBe(T0 + 25_500);
  });

  it('warns half-way when the idle timeout is not longer than the warning', () => {
    const schedule = computeIdleSchedule(T0, 0.5);
    expect(schedule.deadline).toBe(T0 + 30_000 - 1_500);
    expect(schedule.warnAt).toBe(schedule.deadline - 15_000);
    const oneMinute = computeIdleSchedule(T0, 1);
    expect(oneMinute.warnAt).toBe(oneMinute.deadline - 30_000);
  });
});

describe('getIdlePhase', () => {
  const schedule = computeIdleSchedule(T0, 15);

  it('is active until the warning time', () => {
    expect(getIdlePhase(T0, schedule)).toBe('active');
    expect(getIdlePhase(schedule.warnAt - 1, schedule)).toBe('active');
  });

  it('is warning from the warning time until the deadline', () => {
    expect(getIdlePhase(schedule.warnAt, schedule)).toBe('warning');
    expect(getIdlePhase(schedule.deadline - 1, schedule)).toBe('warning');
  });

  it('is expired at and after the deadline, however long the tab slept', () => {
    expect(getIdlePhase(schedule.deadline, schedule)).toBe('expired');
    expect(getIdlePhase(schedule.deadline + 3 * 3_600_000, schedule)).toBe('expired');
  });
});

describe('countdown', () => {
  it('rounds the remaining time up to whole seconds and never goes below zero', () => {
    expect(secondsUntil(T0, T0 + 59_001)).toBe(60);
    expect(secondsUntil(T0, T0 + 59_000)).toBe(59);
    expect(secondsUntil(T0 + 5_000, T0)).toBe(0);
  });

  it('formats minutes and seconds', () => {
    expect(formatCountdown(60)).toBe('1:00');
    expect(formatCountdown(75)).toBe('1:15');
    expect(formatCountdown(5)).toBe('0:05');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});
