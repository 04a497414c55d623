import { describe, expect, it } from 'vitest';

import { validateSignIn } from './sign-in-logic.ts';

describe('validateSignIn', () => {
  it('puts the shared schema messages at the fields', () => {
    expect(validateSignIn({ email: '', password: '' })).toEqual({
      ok: false,
      errors: {
        email: { id: 'fieldMessages.emailRequired', params: {} },
        password: { id: 'passwordMessages.required', params: {} },
      },
    });
    expect(validateSignIn({ email: 'not-an-email', password: 'x' })).toEqual({
      ok: false,
      errors: { email: { id: 'fieldMessages.emailInvalid', params: {} } },
    });
  });

  it('trims and lower-cases the email it sends', () => {
    expect(validateSignIn({ email: '  Provider@Demo.TEST ', password: 'DemoPass-2026!' })).toEqual({
      ok: true,
      data: { email: 'provider@demo.test', password: 'DemoPass-2026!' },
    });
  });
});
