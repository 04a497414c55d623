export { BillingPanel } from './components/billing-panel.tsx';
export { VisitCodingSection } from './components/visit-coding-section.tsx';
