export { ConsoleStatsCards } from './components/console-stats.tsx';
export { RecentActivity } from './components/recent-activity.tsx';
export { HealthScreen } from './components/health-screen.tsx';
