export { EmergencyBanner } from './emergency-banner.tsx';
