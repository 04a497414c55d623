export { BillingReportsSection } from './components/billing-reports-section.tsx';
