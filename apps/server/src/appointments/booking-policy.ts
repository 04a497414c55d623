import type { BookingPolicy } from '@telehealth/shared';
import type { Config } from '../config.ts';

/**
 * Where the practice's booking policy for patients comes from (decision 030). Every caller reads it through
 * `current()`, once per operation, so that moving it from the environment into the database's settings (issue
 * 16) changes this object only.
 */
export interface BookingPolicySource {
  current(): Promise<BookingPolicy>;
}

/** The policy of the environment (PATIENT_* variables, validated at start). */
export function bookingPolicyOf(config: Pick<Config, 'patientBooking'>): BookingPolicySource {
  const policy: BookingPolicy = {
    ...config.patientBooking,
    appointmentTypes: [...config.patientBooking.appointmentTypes],
  };
  return { current: () => Promise.resolve(policy) };
}
