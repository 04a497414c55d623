export { DiagnosesPanel } from './components/diagnoses-panel.tsx';
