import { createHmac, timingSafeEqual } from 'node:crypto';
import { badUserInput } from '../errors.ts';

/** Where a page ended, in the list's own order: lower(last name), lower(first name), id. */
export type PatientCursor = readonly [string, string, string];

/**
 * nextToken is opaque to clients: the cursor's values, signed with the server secret, so a forged or damaged
 * token is recognised and refused instead of silently paging from somewhere else.
 */
export class CursorCodec {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = createHmac('sha256', secret).update('patients.nextToken').digest();
  }

  encode(cursor: PatientCursor): string {
    const body = Buffer.from(JSON.stringify(cursor)).toString('base64url');
    return `${body}.${this.#sign(body)}`;
  }

  decode(token: string): PatientCursor {
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) throw badUserInput('patientMessages.invalidToken');
    const expected = Buffer.from(this.#sign(body));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw badUserInput('patientMessages.invalidToken');
    const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 3 || !value.every((v) => typeof v === 'string')) {
      throw badUserInput('patientMessages.invalidToken');
    }
    return value as unknown as PatientCursor;
  }

  #sign(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}
