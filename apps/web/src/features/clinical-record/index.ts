export { AllergiesPanel } from './components/allergies-panel.tsx';
export { DiagnosesPanel } from './components/diagnoses-panel.tsx';
export { MedicationsPanel } from './components/medications-panel.tsx';
export { CaseTimeline, type TimelineScore } from './components/case-timeline.tsx';
export { TreatmentPlanPanel } from './components/treatment-plan-panel.tsx';
export type { LatestScores } from './components/treatment-plan-view.tsx';
export { MyTreatmentPlan } from './components/my-treatment-plan.tsx';
export { TreatmentPlansDue } from './components/treatment-plans-due.tsx';
