export { DiagnosesPanel } from './components/diagnoses-panel.tsx';
export { MedicationsPanel } from './components/medications-panel.tsx';
