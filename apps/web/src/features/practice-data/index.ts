export { DataScreen } from './components/data-screen.tsx';
export { PatientRecordAdmin } from './components/patient-record-admin.tsx';
