import { CreatePatientInputSchema } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import { fieldErrorsFromServer, fieldErrorsFromZod, hasPublicMessage, isNotFoundError } from './form-errors.ts';
import { GraphQLRequestError } from './graphql.ts';

describe('fieldErrorsFromServer', () => {
  it('maps the server’s extensions.fieldErrors to the fields', () => {
    const error = new GraphQLRequestError('graphql', [
      {
        message: 'Validation failed: Please enter a valid email address, Please choose a provider',
        extensions: {
          code: 'BAD_USER_INPUT',
          fieldErrors: { email: 'Please enter a valid email address', owner: 'Please choose a provider' },
        },
      },
    ]);
    expect(fieldErrorsFromServer(error)).toEqual({
      email: 'Please enter a valid email address',
      owner: 'Please choose a provider',
    });
  });

  it('keeps the first message of a field and ignores what is not a message', () => {
    const error = new GraphQLRequestError('graphql', [
      { message: 'a', extensions: { code: 'BAD_USER_INPUT', fieldErrors: { email: 'first', phone: 42 } } },
      { message: 'b', extensions: { code: 'BAD_USER_INPUT', fieldErrors: { email: 'second' } } },
    ]);
    expect(fieldErrorsFromServer(error)).toEqual({ email: 'first' });
  });

  it('is null for errors that are not refused input', () => {
    const forbidden = new GraphQLRequestError('graphql', [
      { message: 'Permission denied: Cannot create patients', extensions: { code: 'FORBIDDEN' } },
    ]);
    expect(fieldErrorsFromServer(forbidden)).toBeNull();
    expect(fieldErrorsFromServer(new Error('boom'))).toBeNull();
    expect(fieldErrorsFromServer(new GraphQLRequestError('network', []))).toBeNull();
  });
});

describe('fieldErrorsFromZod', () => {
  it('gives the first problem of each field', () => {
    const parsed = CreatePatientInputSchema.safeParse({ firstName: 'A', lastName: '', email: 'x', dateOfBirth: '' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(fieldErrorsFromZod(parsed.error)).toEqual({
      firstName: 'First name must be at least 2 characters long',
      lastName: 'Last name is required',
      email: 'Please enter a valid email address',
      dateOfBirth: 'Date of birth is required',
    });
  });
});

describe('error kinds', () => {
  const notFound = new GraphQLRequestError('graphql', [
    { message: 'Patient not found', extensions: { code: 'NOT_FOUND' } },
  ]);
  const internal = new GraphQLRequestError('graphql', [
    { message: 'An unexpected error occurred', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
  ]);

  it('recognises NOT_FOUND', () => {
    expect(isNotFoundError(notFound)).toBe(true);
    expect(isNotFoundError(internal)).toBe(false);
  });

  it('shows the server’s words only for refusals meant for people', () => {
    expect(hasPublicMessage(notFound)).toBe(true);
    expect(hasPublicMessage(internal)).toBe(false);
    expect(hasPublicMessage(new GraphQLRequestError('network', []))).toBe(false);
  });
});
