export { FeeScheduleScreen } from './components/fee-schedule-screen.tsx';
