import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, registerReadableRequestLog, type LogFormat } from '../src/http/request-log.ts';
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

describe('the readable request log (development)', () => {
  async function serve(format: LogFormat) {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const { stream, ...options } = loggerOptions(format, destination);
    const app = Fastify({ ...options, logger: { level: 'info', ...(stream ? { stream } : { stream: destination }) } });
    registerReadableRequestLog(app, format);
    app.post('/graphql', () => Promise.resolve({ data: {} }));
    await app.inject({
      method: 'POST',
      url: '/graphql?q=Jordan%20Patel',
      payload: { operationName: 'getPatients', query: 'query getPatients { x }', variables: { name: 'Jordan' } },
    });
    await app.close();
    return lines;
  }

  it('writes one short line per request: method, path, operation, status and time, never the query or body', async () => {
    const lines = await serve('pretty');
    const requestLines = lines.filter((line) => line.includes('/graphql'));
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatch(/INFO: POST \/graphql getPatients 200 \d+ ms$/);
    expect(lines.join('\n')).not.toContain('Jordan');
    expect(lines.join('\n')).not.toContain('incoming request');
  });

  it('keeps JSON lines, Fastify’s own pair per request, for a log collector', async () => {
    const lines = await serve('json');
    const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
  });
});
