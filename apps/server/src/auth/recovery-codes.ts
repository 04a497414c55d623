import { createHmac } from 'node:crypto';
import { normalizeRecoveryCode } from '@telehealth/shared';

/**
 * Recovery codes are kept as HMAC-SHA256 hashes keyed with the auth secret, so a copy of the database alone
 * cannot be searched for them. better-auth's twoFactor plugin keeps the list and removes a code when it is used;
 * it compares the stored list with what it is given, so it is given the hash of what the person typed.
 */
export interface RecoveryCodeHasher {
  /** The stored form of one code as typed (case, spaces and the hyphen do not matter). */
  hash(code: string): string;
  /**
   * The plugin's "encrypt" of the JSON list it stores: a new list arrives as codes, a list with a used code
   * removed arrives as hashes already; every entry comes out as a hash, and a hash is kept as it is.
   */
  hashList(json: string): string;
}

const HASH = /^[0-9a-f]{64}$/;

export function recoveryCodeHasher(secret: string): RecoveryCodeHasher {
  const hash = (code: string) =>
    createHmac('sha256', secret)
      .update(`recovery-code:${normalizeRecoveryCode(code)}`)
      .digest('hex');
  return {
    hash,
    hashList(json) {
      const codes = JSON.parse(json) as unknown;
      if (!Array.isArray(codes)) throw new Error('recovery codes: expected a list');
      return JSON.stringify(
        codes.map((code) => (typeof code === 'string' && HASH.test(code) ? code : hash(String(code)))),
      );
    },
  };
}
