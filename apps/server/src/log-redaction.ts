/**
 * Error serialisation for logs. Database errors carry the statement's parameters (Drizzle appends
 * "params: ...") and PostgreSQL's `detail` quotes values ("Key (email)=(...) already exists"): both can be
 * health data, so neither reaches a log line. What stays: the error's type, code, message and stack frames.
 */
export function serializeError(error: unknown): {
  type: string;
  message: string;
  stack: string;
  [key: string]: unknown;
} {
  if (!(error instanceof Error)) return { type: typeof error, message: 'non-error thrown', stack: '' };
  const withoutParams = (text: string | undefined) =>
    text?.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [redacted]');
  const out: { type: string; message: string; stack: string; [key: string]: unknown } = {
    type: error.name,
    message: withoutParams(error.message) ?? '',
    stack: withoutParams(error.stack) ?? '',
  };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') out.code = code;
  const table = (error as { table?: unknown }).table;
  if (typeof table === 'string') out.table = table;
  if (error.cause !== undefined) out.cause = serializeError(error.cause);
  return out;
}
