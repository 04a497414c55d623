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

/** Doctor access request form. */
export const YEARS_OF_EXPERIENCE = ['0-2', '3-5', '6-10', '11-15', '16-20', '20+'] as const;
export type YearsOfExperience = (typeof YEARS_OF_EXPERIENCE)[number];

/** The lower bound of a years-of-experience range: what a provider record's whole-year `experience` gets. */
export function experienceLowerBound(range: YearsOfExperience): number {
  return Number.parseInt(range, 10);
}

export const PRACTICE_TYPES = ['private', 'hospital', 'clinic', 'academic', 'telehealth', 'other'] as const;
export type PracticeType = (typeof PRACTICE_TYPES)[number];

export const PATIENT_VOLUMES = ['1-25', '26-50', '51-100', '101-200', '200+'] as const;
export type PatientVolume = (typeof PATIENT_VOLUMES)[number];

export const PROVIDER_INTERESTED_FEATURES = [
  'Patient Records Management',
  'Video Consultations',
  'Appointment Scheduling',
  'Clinical Notes',
  'Prescription Management',
  'Patient Communication',
  'Billing Integration',
  'Reporting & Analytics',
] as const;
export type ProviderInterestedFeature = (typeof PROVIDER_INTERESTED_FEATURES)[number];

export const REFERRAL_SOURCES = ['colleague', 'conference', 'online', 'social', 'publication', 'other'] as const;
export type ReferralSource = (typeof REFERRAL_SOURCES)[number];

export const PROVIDER_CONTACT_METHODS = ['email', 'phone', 'either'] as const;
export type ProviderContactMethod = (typeof PROVIDER_CONTACT_METHODS)[number];

/** Patient access request form. */
export const PATIENT_SERVICES = [
  'Psychiatric Consultations',
  'Therapy/Counseling Sessions',
  'Medication Management',
  'Crisis Support',
  'Family Therapy',
  'Group Therapy',
  'Substance Abuse Treatment',
  'ADHD Assessment',
  'Anxiety Treatment',
  'Depression Treatment',
] as const;
export type PatientService = (typeof PATIENT_SERVICES)[number];

export const PREFERRED_APPOINTMENT_TIMES = ['morning', 'afternoon', 'evening', 'weekends', 'flexible'] as const;
export type PreferredAppointmentTime = (typeof PREFERRED_APPOINTMENT_TIMES)[number];

/** The hours the specification gives each time of day. */
export const PREFERRED_APPOINTMENT_TIME_HOURS: Partial<Record<PreferredAppointmentTime, string>> = {
  morning: '8am-12pm',
  afternoon: '12pm-5pm',
  evening: '5pm-8pm',
};

export const TECHNOLOGY_COMFORT_LEVELS = ['beginner', 'intermediate', 'advanced', 'need-help'] as const;
export type TechnologyComfort = (typeof TECHNOLOGY_COMFORT_LEVELS)[number];

export const HEAR_ABOUT_US_SOURCES = [
  'doctor-referral',
  'friend-family',
  'online-search',
  'social-media',
  'insurance',
  'other',
] as const;
export type HearAboutUsSource = (typeof HEAR_ABOUT_US_SOURCES)[number];

export const PATIENT_CONTACT_METHODS = ['email', 'phone', 'text', 'any'] as const;
export type PatientContactMethod = (typeof PATIENT_CONTACT_METHODS)[number];

export const LANGUAGE_PREFERENCES = ['english', 'spanish', 'other'] as const;
export type LanguagePreference = (typeof LANGUAGE_PREFERENCES)[number];

/** The languages the product speaks (screens and e-mails). */
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/*
 * English labels of the option sets whose stored values are codes, as the request forms show them. The sets
 * whose values are already words (specialties, features, services) are their own labels.
 */
export const YEARS_OF_EXPERIENCE_LABELS: Record<YearsOfExperience, string> = {
  '0-2': '0-2 years',
  '3-5': '3-5 years',
  '6-10': '6-10 years',
  '11-15': '11-15 years',
  '16-20': '16-20 years',
  '20+': '20+ years',
};

export const PRACTICE_TYPE_LABELS: Record<PracticeType, string> = {
  private: 'Private practice',
  hospital: 'Hospital',
  clinic: 'Clinic',
  academic: 'Academic medical center',
  telehealth: 'Telehealth practice',
  other: 'Other',
};

export const PATIENT_VOLUME_LABELS: Record<PatientVolume, string> = {
  '1-25': '1-25 patients',
  '26-50': '26-50 patients',
  '51-100': '51-100 patients',
  '101-200': '101-200 patients',
  '200+': '200+ patients',
};

export const REFERRAL_SOURCE_LABELS: Record<ReferralSource, string> = {
  colleague: 'Colleague',
  conference: 'Conference',
  online: 'Online search',
  social: 'Social media',
  publication: 'Publication',
  other: 'Other',
};

export const PROVIDER_CONTACT_METHOD_LABELS: Record<ProviderContactMethod, string> = {
  email: 'Email',
  phone: 'Phone',
  either: 'Either',
};

export const PREFERRED_APPOINTMENT_TIME_LABELS: Record<PreferredAppointmentTime, string> = {
  morning: `Morning (${PREFERRED_APPOINTMENT_TIME_HOURS.morning ?? ''})`,
  afternoon: `Afternoon (${PREFERRED_APPOINTMENT_TIME_HOURS.afternoon ?? ''})`,
  evening: `Evening (${PREFERRED_APPOINTMENT_TIME_HOURS.evening ?? ''})`,
  weekends: 'Weekends',
  flexible: 'Flexible',
};

export const TECHNOLOGY_COMFORT_LABELS: Record<TechnologyComfort, string> = {
  beginner: 'Beginner',
  intermediate: 'Intermediate',
  advanced: 'Advanced',
  'need-help': 'I need help with technology',
};

export const HEAR_ABOUT_US_LABELS: Record<HearAboutUsSource, string> = {
  'doctor-referral': 'Doctor referral',
  'friend-family': 'Friend or family',
  'online-search': 'Online search',
  'social-media': 'Social media',
  insurance: 'Insurance provider',
  other: 'Other',
};

export const PATIENT_CONTACT_METHOD_LABELS: Record<PatientContactMethod, string> = {
  email: 'Email',
  phone: 'Phone',
  text: 'Text message',
  any: 'Any',
};

export const LANGUAGE_PREFERENCE_LABELS: Record<LanguagePreference, string> = {
  english: 'English',
  spanish: 'Spanish',
  other: 'Other',
};
