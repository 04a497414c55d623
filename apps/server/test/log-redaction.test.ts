import { describe, expect, it } from 'vitest';
import { serializeError } from '../src/log-redaction.ts';

describe('serializeError', () => {
  it('drops statement parameters and PostgreSQL details that may hold health data', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "x"'), {
      code: '23505',
      detail: 'Key (email)=(jane.doe@example.net) already exists.',
      table: 'patients',
    });
    const error = new Error(
      'Failed query: insert into "patients" ("first_name") values ($1)\nparams: Jane,Doe,1980-01-01',
      { cause },
    );
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain('Jane');
    expect(logged).not.toContain('jane.doe@example.net');
    expect(logged).toContain('params: [redacted]');
    expect(logged).toContain('23505');
    expect(logged).toContain('Failed query: insert into');
  });
});
