export { UsersScreen } from './components/users-screen.tsx';
