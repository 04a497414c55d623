export { ProviderBillingButton, ProviderBillingCard } from './components/provider-billing-card.tsx';
