import type { BookingPolicy } from '@telehealth/shared';
import type { PracticeSettingsSource } from '../config.ts';

/**
 * Where the practice's booking policy for patients comes from (decision 030). Every caller reads it through
 * `current()`, once per operation: the practice's settings in use at that moment (decision 032).
 */
export interface BookingPolicySource {
  current(): Promise<BookingPolicy>;
}

/** The policy of the practice's settings (PATIENT_* variables until an administrator changes it). */
export function bookingPolicyOf(settings: PracticeSettingsSource): BookingPolicySource {
  return {
    current: () => {
      const policy = settings.current().bookingPolicy;
      return Promise.resolve({ ...policy, appointmentTypes: [...policy.appointmentTypes] });
    },
  };
}
