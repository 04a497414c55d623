import { describe, expect, it } from 'vitest';

import { formatClinicDateTime, formatClinicTime, formatVisitTime, zoneDiffers } from './practice-dates.ts';

const NEW_YORK = 'America/New_York';
// 13:00 UTC on a winter day: 08:00 in New York (EST), 14:00 in Madrid.
const VISIT = { time: '08:00', startsAt: '2026-12-10T13:00:00.000Z' };

describe('clinic times (decision 050)', () => {
  it('name the practice zone when the device is elsewhere, and not when it is in the practice zone', () => {
    expect(formatVisitTime(VISIT, { zone: NEW_YORK, viewerZone: 'Europe/Madrid', language: 'en' })).toBe('08:00 EST');
    expect(formatVisitTime(VISIT, { zone: NEW_YORK, viewerZone: NEW_YORK, language: 'en' })).toBe('08:00');
    expect(formatVisitTime(VISIT, { zone: NEW_YORK, viewerZone: 'Europe/Madrid', language: 'es' })).toBe('08:00 GMT-5');
  });

  it('write a moment in the practice zone, not the device zone', () => {
    const madrid = { zone: NEW_YORK, viewerZone: 'Europe/Madrid', language: 'en' };
    expect(formatClinicTime(new Date(VISIT.startsAt), madrid)).toBe('8:00 AM EST');
    expect(formatClinicDateTime(VISIT.startsAt, madrid)).toBe('Dec 10, 2026, 8:00 AM EST');
  });

  it('leave out the name when another zone of the device shows the same time', () => {
    expect(zoneDiffers(NEW_YORK, 'America/Toronto', new Date(VISIT.startsAt))).toBe(false);
    expect(zoneDiffers(NEW_YORK, 'America/Chicago', new Date(VISIT.startsAt))).toBe(true);
    expect(zoneDiffers(NEW_YORK, null, new Date(VISIT.startsAt))).toBe(true);
  });
});
