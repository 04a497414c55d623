export { BillingDocuments } from './components/billing-documents.tsx';
