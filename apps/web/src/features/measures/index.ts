export { MeasuresPanel } from './components/measures-panel.tsx';
export { PendingQuestionnaires } from './components/pending-questionnaires.tsx';
export { QuestionnaireScreen } from './components/questionnaire-screen.tsx';
export { SafetyAlerts } from './components/safety-alerts.tsx';
export { useQuestionnaireResults } from './api/measures-api.ts';
