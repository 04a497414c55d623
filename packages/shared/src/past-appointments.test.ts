import { describe, expect, it } from 'vitest';
import { isPastAppointment } from './appointments.ts';

describe('isPastAppointment', () => {
  const now = Date.parse('2026-11-26T15:00:00Z');
  const ahead = '2026-11-26T16:30:00Z';

  it('keeps a visit ahead under Upcoming while it is open', () => {
    for (const status of ['scheduled', 'pending', 'confirmed', 'checked-in', 'in-progress']) {
      expect(isPastAppointment({ status, endsAt: ahead }, now)).toBe(false);
    }
  });

  it('moves a visit ended early (completed, no-show) to Past even before its start time', () => {
    expect(isPastAppointment({ status: 'completed', endsAt: ahead }, now)).toBe(true);
    expect(isPastAppointment({ status: 'no-show', endsAt: ahead }, now)).toBe(true);
  });

  it('moves any visit whose time is over to Past', () => {
    expect(isPastAppointment({ status: 'confirmed', endsAt: '2026-11-26T14:59:00Z' }, now)).toBe(true);
  });
});
