import {
  accountLockedMessage,
  MESSAGE_CATALOGUE,
  MESSAGES,
  PATIENT_MESSAGES,
  tooManyRequestsMessage,
  validationFailedMessage,
} from '@telehealth/shared';
import i18n from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { describeError, describeSignInError } from './errors.ts';
import { GraphQLRequestError } from './graphql.ts';
// The page's texts (errors.ts uses the page's i18next instance, set up by lib/i18n.ts in the app).
import './i18n.ts';

const graphqlError = (message: string, code?: string) =>
  new GraphQLRequestError('graphql', [{ message, ...(code ? { extensions: { code } } : {}) }]);

describe('describeError', () => {
  it("shows the server's message for errors meant for people", () => {
    expect(describeError(graphqlError('Patient not found', 'NOT_FOUND'))).toBe('Patient not found');
    expect(
      describeError(
        new GraphQLRequestError('graphql', [
          { message: 'First name is required' },
          { message: 'Invalid email format' },
        ]),
      ),
    ).toBe('First name is required, Invalid email format');
  });

  it('follows the error catalogue for authentication and validation failures', () => {
    expect(describeError(graphqlError('whatever', 'UNAUTHENTICATED'))).toBe(MESSAGES.authRequired);
    expect(describeError(graphqlError('UnauthorizedException: token expired'))).toBe(
      'Authentication expired. Please sign in again.',
    );
    expect(describeError(graphqlError('ValidationException: bad'))).toBe(
      'Invalid data provided. Please check your inputs.',
    );
  });

  it('hides internal errors and unknown failures behind the generic message', () => {
    expect(describeError(graphqlError('relation "x" does not exist', 'INTERNAL_SERVER_ERROR'))).toBe(
      MESSAGES.unexpected,
    );
    expect(describeError(new Error('boom'))).toBe(MESSAGES.unexpected);
    expect(describeError(new GraphQLRequestError('http', [{ message: 'API request failed: 502' }], 502))).toBe(
      MESSAGES.unexpected,
    );
  });

  it('says when the server could not be reached', () => {
    expect(describeError(new GraphQLRequestError('network', []))).toMatch(/could not reach the server/i);
  });
});

describe('server errors in the page language, by message id', () => {
  const withId = (message: string, messageId: string, params: Record<string, unknown> = {}) =>
    new GraphQLRequestError('graphql', [{ message, extensions: { code: 'BAD_USER_INPUT', messageId, params } }]);

  beforeAll(async () => {
    await i18n.loadLanguages('es');
    await i18n.changeLanguage('es');
  });
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('says a catalogue message in Spanish, with its parameters and plural', () => {
    expect(describeError(withId(PATIENT_MESSAGES.notFound, 'patientMessages.notFound'))).toBe(
      'No se encontró el paciente',
    );
    expect(describeError(withId(tooManyRequestsMessage(60_000), 'messages.tooManyRequests', { count: 1 }))).toBe(
      'Demasiados intentos. Inténtelo de nuevo en 1 minuto.',
    );
    expect(describeError(withId(accountLockedMessage(5 * 60_000), 'messages.accountLocked', { count: 5 }))).toMatch(
      /en 5 minutos\.$/,
    );
    const problems = 'First name is required, Please enter a valid email address';
    // The problems are said from their ids (`extensions.fields`), never from the English list.
    const refused = new GraphQLRequestError('graphql', [
      {
        message: validationFailedMessage([problems]),
        extensions: {
          code: 'BAD_USER_INPUT',
          messageId: 'messages.validationFailed',
          params: { problems },
          fields: [
            { field: 'firstName', messageId: 'fieldMessages.required', params: { label: 'First name' } },
            { field: 'email', messageId: 'fieldMessages.emailInvalid', params: {} },
          ],
        },
      },
    ]);
    expect(describeError(refused)).toBe(
      'Error de validación: El campo «Nombre» es obligatorio, Ingrese una dirección de correo electrónico válida',
    );
  });

  it("keeps the server's words when the id is unknown or missing: English text is never looked up", () => {
    expect(describeError(withId('Something new', 'patientMessages.somethingNew'))).toBe('Something new');
    // The catalogue's English text without its id stays as it came.
    expect(describeError(graphqlError(PATIENT_MESSAGES.notFound, 'NOT_FOUND'))).toBe(PATIENT_MESSAGES.notFound);
  });

  it("says a sign-in result's refusal by its id, the schema's own messages too", () => {
    const locked = {
      error: accountLockedMessage(4 * 60_000),
      errorMessage: { id: 'messages.accountLocked', params: [{ name: 'count', value: '4' }] },
    };
    expect(describeSignInError(locked)).toMatch(/^Demasiados intentos fallidos.*en 4 minutos\.$/);
    expect(
      describeSignInError({
        error: MESSAGES.invalidCredentials,
        errorMessage: { id: 'messages.invalidCredentials', params: [] },
      }),
    ).toBe('Credenciales no válidas');
    expect(
      describeSignInError({
        error: 'Email is required',
        errorMessage: { id: 'fieldMessages.emailRequired', params: [] },
      }),
    ).toBe('El correo electrónico es obligatorio');
    // A server that names no id: its own words, never looked up.
    expect(describeSignInError({ error: 'Email is required', errorMessage: null })).toBe('Email is required');
    expect(describeSignInError({ error: null, errorMessage: null })).toBeNull();
  });

  it('has every catalogue message in Spanish, with the same parameters and the same numbers', () => {
    const english = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|\d+/g)].map((m) => m[0]).sort();
    for (const [section, entries] of Object.entries(MESSAGE_CATALOGUE)) {
      for (const [key, text] of Object.entries(entries as Record<string, string>)) {
        const spanish: unknown = i18n.getResource('es', 'shared', `${section}.${key}`);
        expect(typeof spanish, `${section}.${key}`).toBe('string');
        expect(spanish, `${section}.${key}`).not.toBe(text);
        expect(english(String(spanish)), `${section}.${key}`).toEqual(english(text));
      }
    }
  });
});
