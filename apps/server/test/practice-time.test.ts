import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { zonedDateTime } from '@telehealth/shared';
import { practiceDateTime } from '../src/appointments/practice-time.ts';

// practiceDateTime caches each zone's offset between transitions; it must answer exactly what Temporal does.
const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe', // half-hour daylight saving time
  'Asia/Kathmandu', // +05:45
  'Africa/Monrovia', // -00:44:30 until 1972
  'America/St_Johns',
  'Pacific/Chatham',
  'UTC',
];

function expectSame(instant: Date, zone: string) {
  const { date, time } = zonedDateTime(instant, zone);
  expect(practiceDateTime(instant, zone), `${zone} ${instant.toISOString()}`).toEqual({ date, time });
}

describe('practiceDateTime', () => {
  it('answers what zonedDateTime does around every transition of a year', () => {
    for (const zone of ZONES) {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 127 * 60_000 + 13_001)
        expectSame(new Date(t), zone);
      let transition = Temporal.Instant.from('2026-01-01T00:00:00Z')
        .toZonedDateTimeISO(zone)
        .getTimeZoneTransition('next');
      while (transition && transition.year === 2026) {
        const at = transition.epochMilliseconds;
        for (let t = at - 3_600_000; t <= at + 3_600_000; t += 60_000) {
          expectSame(new Date(t), zone);
          expectSame(new Date(t - 1), zone);
        }
        transition = transition.getTimeZoneTransition('next');
      }
    }
  });

  it('answers what zonedDateTime does far from today, and at the edges of four-digit years', () => {
    let seed = 26;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    for (const zone of ZONES) {
      for (let i = 0; i < 500; i++) expectSame(new Date(Math.floor(random() * 4e12)), zone);
      expectSame(new Date('1000-01-01T00:00:00Z'), zone);
      expectSame(new Date('0999-12-31T23:59:59Z'), zone);
      expectSame(new Date('9999-12-31T23:59:59Z'), zone);
    }
  });
});
