export { AdminDocumentsScreen } from './components/admin-documents-screen.tsx';
export { MyDocumentsScreen } from './components/my-documents-screen.tsx';
export { PatientDocumentsPanel } from './components/patient-documents-panel.tsx';
export { PracticeDocumentToSign } from './components/document-to-sign.tsx';
