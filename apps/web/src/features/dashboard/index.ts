export { Dashboard, type DashboardProps } from './components/dashboard.tsx';
