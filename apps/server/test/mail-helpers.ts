import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import type { GraphQLResponse } from './helpers.ts';
import { afterFile } from './file-cleanup.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /** Resolves with the first received mail (now or later) that matches. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
}

/** A real SMTP server on loopback (a random port unless given; no TLS, no authentication) that keeps what arrives. */
export async function startSmtpServer(options: { port?: number } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          ...parseMessage(raw),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  afterFile(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(match);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(
            `no matching mail arrived; got: ${received.map((m) => `${m.to.join(',')}: ${m.subject}`).join(' | ')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

/** Just enough MIME for our own mail: headers, multipart/alternative, quoted-printable and base64, encoded words. */
export function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const { headers, body } = splitHeaders(raw);
  const subject = decodeWords(headers.get('subject') ?? '');
  const parts = collectParts(headers, body);
  return { subject, text: parts['text/plain'] ?? '', html: parts['text/html'] ?? '' };
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function collectParts(headers: Map<string, string>, body: string): Record<string, string> {
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const out: Record<string, string> = {};
    for (const section of body.split(`--${boundary}`).slice(1)) {
      if (section.startsWith('--')) break;
      const part = splitHeaders(section.replace(/^\n/, ''));
      Object.assign(out, collectParts(part.headers, part.body));
    }
    return out;
  }
  const mime = type.split(';')[0]?.trim().toLowerCase() ?? 'text/plain';
  return { [mime]: decodeBody(body, headers.get('content-transfer-encoding') ?? '7bit') };
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

function decodeQuotedPrintable(value: string): string {
  const joined = value.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const char = joined[i]!;
    if (char === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_m, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

/** A GraphQL call from a given client address, without a session (public forms, e-mailed links). */
export async function gqlFrom<T = Record<string, unknown>>(
  app: FastifyInstance,
  ip: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphQLResponse<T> & { errors?: { message: string; extensions?: Record<string, unknown> }[] }> {
  const response = await app.inject({
    method: 'POST',
    url: '/graphql',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: { query, variables },
  });
  const body = response.json<{
    data: T | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  }>();
  return {
    status: response.statusCode,
    data: body.data,
    ...(body.errors ? { errors: body.errors } : {}),
    setCookies: [],
  };
}

/** The link token and the code in a mail's text. */
export function linkToken(text: string, path: '/invite' | '/reset-password'): string {
  const match = new RegExp(`${path}#([A-Za-z0-9_-]+)`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in: ${text}`);
  return match[1];
}

export function resetCode(text: string): string {
  const match = /(?:code|código): (\d{6})/.exec(text);
  if (!match?.[1]) throw new Error(`no code in: ${text}`);
  return match[1];
}
