export { PatientListScreen, type PatientListScreenProps } from './components/patient-list-screen.tsx';
export { PatientCreateScreen, PatientEditScreen } from './components/patient-form-screens.tsx';
export { PatientChart } from './components/patient-chart-header.tsx';
export type { Patient } from './api/patient-schemas.ts';
