export { AllergiesPanel } from './components/allergies-panel.tsx';
export { DiagnosesPanel } from './components/diagnoses-panel.tsx';
