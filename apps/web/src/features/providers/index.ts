export { ProvidersScreen } from './components/providers-screen.tsx';
