export { AllergiesPanel } from './components/allergies-panel.tsx';
export { DiagnosesPanel } from './components/diagnoses-panel.tsx';
export { MedicationsPanel } from './components/medications-panel.tsx';
export { CaseTimeline, type TimelineScore } from './components/case-timeline.tsx';
export { NoteRecordAside } from './components/note-record-aside.tsx';
export { MedicationListPrint } from './components/medication-list-print.tsx';
export { MyClinicalRecord } from './components/my-clinical-record.tsx';
