export { LoginPage, type LoginPageProps } from './components/login-page.tsx';
