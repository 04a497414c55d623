export { AccessRequestsScreen } from './components/access-requests-screen.tsx';
export { OutboxScreen } from './components/outbox-screen.tsx';
