export { IdleLogoff } from './components/idle-logoff.tsx';
