import { ERROR_CODES, MESSAGES } from '@telehealth/shared';

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** An error whose message is safe to show to the caller, with the code sent in `extensions.code`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
  }
}

/** Recognises an AppError by shape as well, since GraphQL libraries may re-wrap what a resolver threw. */
export function isAppError(error: Error): error is AppError {
  return error instanceof AppError || (error.name === 'AppError' && typeof (error as { code?: unknown }).code === 'string');
}

export const unauthenticated = () => new AppError(ERROR_CODES.unauthenticated, MESSAGES.authRequired);
export const forbidden = (message: string = MESSAGES.defaultDenied) => new AppError(ERROR_CODES.forbidden, message);
export const badUserInput = (message: string) => new AppError(ERROR_CODES.badUserInput, message);
