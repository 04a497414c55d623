export { StoredTextScreen } from './components/stored-text-screen.tsx';
