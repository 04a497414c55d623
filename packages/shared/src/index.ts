export * from './audit.ts';
export * from './auth.ts';
export * from './constants.ts';
export * from './messages.ts';
export * from './roles.ts';
