import { describe, expect, it } from 'vitest';
import { CRITICAL_EVENTS, HIPAA_EVENTS, redactAuditDetails, retentionYearsFor } from './audit.ts';

describe('audit classification', () => {
  it('keeps HIPAA events 6 years, other critical events 7, the rest 3', () => {
    expect(retentionYearsFor('PATIENT_VIEW')).toBe(6);
    expect(retentionYearsFor('UNAUTHORIZED_ACCESS')).toBe(6);
    expect(retentionYearsFor('FAILED_LOGIN')).toBe(7);
    expect(retentionYearsFor('ADMIN_LOGIN')).toBe(7);
    expect(retentionYearsFor('LOGIN')).toBe(3);
  });

  it('lists the specification events', () => {
    // The specification's eight, then the product's emergency access events (decision 036).
    expect(CRITICAL_EVENTS).toHaveLength(11);
    expect(HIPAA_EVENTS).toHaveLength(11);
  });
});

describe('redactAuditDetails', () => {
  it('removes passwords, tokens and social security numbers at any depth', () => {
    expect(
      redactAuditDetails({
        password: 'x',
        newPassword: 'y',
        token: 't',
        accessToken: 'a',
        ssn: '1',
        list: [{ SSN: '2', ok: 1 }],
        keep: 'k',
      }),
    ).toEqual({ list: [{ ok: 1 }], keep: 'k' });
  });
});
