export { useMyRecord } from './api/my-records-api.ts';
export { MyDetailsPanel } from './components/my-details-panel.tsx';
export { RecordAccessScreen } from './components/record-access-screen.tsx';
export { RecordCorrectionsPanel } from './components/record-corrections-panel.tsx';
export { SharedNotesPanel } from './components/shared-notes-panel.tsx';
