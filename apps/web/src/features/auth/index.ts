export { LoginScreen, type LoginScreenProps } from './components/login-screen.tsx';
