export { DataScreen } from './components/data-screen.tsx';
