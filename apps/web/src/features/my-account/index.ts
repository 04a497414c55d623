export { MyAccountScreen } from './components/my-account-screen.tsx';
export { useAccountLanguage } from './hooks/use-account-language.ts';
