import { DASHBOARD_HEADINGS, PATIENT_LABELS } from '@telehealth/shared';

import accessRequest from '../locales/en/access-request.json';
import appointments from '../locales/en/appointments.json';
import accessReview from '../locales/en/access-review.json';
import account from '../locales/en/account.json';
import auth from '../locales/en/auth.json';
import auditTrail from '../locales/en/audit-trail.json';
import billingDocuments from '../locales/en/billing-documents.json';
import common from '../locales/en/common.json';
import dashboard from '../locales/en/dashboard.json';
import errors from '../locales/en/errors.json';
import measures from '../locales/en/measures.json';
import clinicalRecord from '../locales/en/clinical-record.json';
import intake from '../locales/en/intake.json';
import messages from '../locales/en/messages.json';
import notes from '../locales/en/notes.json';
import patients from '../locales/en/patients.json';
import providers from '../locales/en/providers.json';
import publicSite from '../locales/en/public.json';
import screens from '../locales/en/screens.json';
import security from '../locales/en/security.json';
import session from '../locales/en/session.json';
import storedText from '../locales/en/stored-text.json';
import settings from '../locales/en/settings.json';
import video from '../locales/en/video.json';
import waitlist from '../locales/en/waitlist.json';
import myAppointments from '../locales/en/my-appointments.json';
import myAccount from '../locales/en/my-account.json';
import myRecords from '../locales/en/my-records.json';
import emergencyAccess from '../locales/en/emergency-access.json';
import practiceData from '../locales/en/data.json';
import adminConsole from '../locales/en/admin-console.json';
import adminUsers from '../locales/en/admin-users.json';
import reports from '../locales/en/reports.json';
import billingReports from '../locales/en/billing-reports.json';
import practiceDocuments from '../locales/en/practice-documents.json';
import firstVisit from '../locales/en/first-visit.json';
import billingLedger from '../locales/en/billing-ledger.json';
import billingSetup from '../locales/en/billing-setup.json';
import { createI18n } from './i18n-core.ts';
import { sharedTexts } from './shared-texts.ts';

/** Every namespace of the app, bundled in English (see createI18n). */
export const englishResources = {
  common,
  auth,
  dashboard,
  session,
  errors,
  screens,
  patients,
  providers,
  'access-request': accessRequest,
  public: publicSite,
  'access-review': accessReview,
  account,
  security,
  'stored-text': storedText,
  settings,
  waitlist,
  video,
  appointments,
  notes,
  measures,
  'clinical-record': clinicalRecord,
  intake,
  'my-appointments': myAppointments,
  'my-records': myRecords,
  'my-account': myAccount,
  messages,
  'emergency-access': emergencyAccess,
  'audit-trail': auditTrail,
  data: practiceData,
  'admin-console': adminConsole,
  'admin-users': adminUsers,
  reports,
  'billing-reports': billingReports,
  'practice-documents': practiceDocuments,
  'first-visit': firstVisit,
  'billing-ledger': billingLedger,
  'billing-documents': billingDocuments,
  'billing-setup': billingSetup,
  shared: {
    ...sharedTexts,
    dashboardHeadings: DASHBOARD_HEADINGS,
    patientLabels: PATIENT_LABELS,
  },
} as const;

export const NAMESPACES = Object.keys(englishResources) as (keyof typeof englishResources)[];

export const { i18n } = createI18n(englishResources);
