import { ChangeMedicationInputSchema, CreatePatientInputSchema } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import {
  fieldErrorsByPath,
  fieldErrorsFromServer,
  fieldErrorsFromZod,
  hasPublicMessage,
  isNotFoundError,
} from './form-errors.ts';
import { GraphQLRequestError } from './graphql.ts';

describe('fieldErrorsFromServer', () => {
  it('maps the server’s extensions.fields to the fields, by message id and parameters', () => {
    const error = new GraphQLRequestError('graphql', [
      {
        message: 'Validation failed: Please enter a valid email address, Please choose a provider',
        extensions: {
          code: 'BAD_USER_INPUT',
          fieldErrors: { email: 'Please enter a valid email address', owner: 'Please choose a provider' },
          fields: [
            { field: 'email', messageId: 'fieldMessages.emailInvalid', params: {} },
            { field: 'owner', messageId: 'fieldMessages.chooseProvider', params: {} },
          ],
        },
      },
    ]);
    expect(fieldErrorsFromServer(error)).toEqual({
      email: { id: 'fieldMessages.emailInvalid', params: {} },
      owner: { id: 'fieldMessages.chooseProvider', params: {} },
    });
  });

  it('keeps the first message of a field and ignores what is not a message', () => {
    const first = { field: 'email', messageId: 'fieldMessages.required', params: { label: 'Email' } };
    const error = new GraphQLRequestError('graphql', [
      { message: 'a', extensions: { code: 'BAD_USER_INPUT', fields: [first, { field: 'phone', messageId: 42 }] } },
      { message: 'b', extensions: { code: 'BAD_USER_INPUT', fields: [{ ...first, messageId: 'x.y' }] } },
    ]);
    expect(fieldErrorsFromServer(error)).toEqual({
      email: { id: 'fieldMessages.required', params: { label: 'Email' } },
    });
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
      firstName: { id: 'fieldMessages.tooShort', params: { label: 'First name', min: 2 } },
      lastName: { id: 'fieldMessages.required', params: { label: 'Last name' } },
      email: { id: 'fieldMessages.emailInvalid', params: {} },
      dateOfBirth: { id: 'fieldMessages.dateOfBirthRequired', params: {} },
    });
  });
});

describe('fieldErrorsByPath', () => {
  it('keys a nested field by its whole path, as the server does', () => {
    const parsed = ChangeMedicationInputSchema.safeParse({
      id: 'm1',
      kind: 'dose-changed',
      reason: '',
      dose: { doseAmount: 0, doseUnit: 'mg', route: 'oral', frequency: 'once-daily' },
    });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(fieldErrorsByPath(parsed.error)).toEqual({
      'dose.doseAmount': { id: 'clinicalRecordMessages.doseAmountInvalid', params: {} },
      reason: { id: 'clinicalRecordMessages.reasonRequired', params: {} },
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
