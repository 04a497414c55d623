export { MessagesScreen } from './components/messages-screen.tsx';
export { PatientConversationsPanel } from './components/patient-conversations-panel.tsx';
