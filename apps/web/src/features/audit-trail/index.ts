export { ApiTokensPanel } from './components/api-tokens-panel.tsx';
export { AuditTrailPanel } from './components/audit-trail-panel.tsx';
