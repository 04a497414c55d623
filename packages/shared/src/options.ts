/** Option sets from the specification. */
export const SPECIALTIES = [
  'Psychiatry',
  'Psychology',
  'Primary Care',
  'Internal Medicine',
  'Family Medicine',
  'Pediatrics',
  'Neurology',
  'Cardiology',
  'Dermatology',
  'Orthopedics',
  'Other',
] as const;
export type Specialty = (typeof SPECIALTIES)[number];
