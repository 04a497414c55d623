export { EmergencyAccessAlert } from './components/emergency-access-alert.tsx';
export { EmergencyAccessBanner } from './components/emergency-access-banner.tsx';
export { EmergencyAccessOffer } from './components/emergency-access-offer.tsx';
export { EmergencyAccessReview } from './components/emergency-access-review.tsx';
export { useMyEmergencyAccess } from './api/emergency-access-api.ts';
