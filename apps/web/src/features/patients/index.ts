export { PatientListScreen, type PatientListScreenProps } from './components/patient-list-screen.tsx';
export { PatientCreateScreen, PatientEditScreen } from './components/patient-form-screens.tsx';
