import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { badUserInput } from '../errors.ts';

/** Where a page ended, in the list's own order: lower(last name), lower(first name), id. */
export type PatientCursor = readonly [string, string, string];

/**
 * nextToken is opaque to clients: the cursor's values (the sort keys of the page's last row), signed with the
 * server secret, so a forged or damaged token is recognised and refused instead of silently paging from somewhere
 * else. Give each list its own secret suffix, so that one list's token is refused by another.
 */
export class CursorCodec<Cursor extends readonly string[] = PatientCursor> {
  /** A KeyObject: the HMAC key is prepared once, not on every token. */
  readonly #key: KeyObject;
  readonly #length: number;

  /** `length`: how many values a cursor of this list holds. */
  constructor(secret: string, length: Cursor['length'] = 3) {
    this.#key = createSecretKey(createHmac('sha256', secret).update('patients.nextToken').digest());
    this.#length = length;
  }

  encode(cursor: Cursor): string {
    const body = Buffer.from(JSON.stringify(cursor)).toString('base64url');
    return `${body}.${this.#sign(body)}`;
  }

  decode(token: string): Cursor {
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) throw badUserInput('patientMessages.invalidToken');
    const expected = Buffer.from(this.#sign(body));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw badUserInput('patientMessages.invalidToken');
    const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== this.#length || !value.every((v) => typeof v === 'string')) {
      throw badUserInput('patientMessages.invalidToken');
    }
    return value as unknown as Cursor;
  }

  #sign(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}
