export * from './access-requests.ts';
export * from './app-config.ts';
export * from './appointments.ts';
export * from './account-setup.ts';
export * from './audit.ts';
export * from './auth.ts';
export * from './constants.ts';
export * from './live.ts';
export * from './measures.ts';
export * from './message-catalogue.ts';
export * from './messages.ts';
export * from './notes.ts';
export * from './roles.ts';
export * from './permissions.ts';
export * from './options.ts';
export * from './patients.ts';
export * from './providers.ts';
export * from './text.ts';
export * from './two-factor.ts';
export * from './video.ts';
// Issue 15, my appointments.
export * from './patient-booking.ts';
// Issue 15, my records.
export * from './portal-records.ts';
// Issue 15, secure messages.
export * from './secure-messages.ts';
