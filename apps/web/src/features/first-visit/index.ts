export { FirstVisitChecklist } from './components/first-visit-checklist.tsx';
export { PatientReadinessBadges, ReadinessBadges } from './components/readiness-badges.tsx';
export { usePatientReadiness } from './api/first-visit-api.ts';
