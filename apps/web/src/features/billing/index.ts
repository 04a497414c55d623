export { BillingPanel } from './components/billing-panel.tsx';
export { VisitCodingSection } from './components/visit-coding-section.tsx';
export { BillingDocuments } from './components/billing-documents.tsx';
