export { CompliancePrintPage } from './components/compliance-print.tsx';
export { ReportsScreen } from './components/reports-screen.tsx';
