export { MyBillingScreen } from './components/my-billing-screen.tsx';
