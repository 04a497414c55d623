export { IntakeScreen } from './components/intake-screen.tsx';
export { IntakePanel } from './components/intake-panel.tsx';
