import { WaitlistOfferScreen } from '../../features/waitlist/index.ts';

/** `/waitlist/offer#TOKEN`: the public page of a waitlist offer. */
export const Component = WaitlistOfferScreen;
