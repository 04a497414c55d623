/*
 * The Idempotency-Key request header (IETF HTTP API draft "The Idempotency-Key HTTP Header Field"; decision 044):
 * a create mutation sent again with the same key and input answers the first result without a second write.
 */

/** The header's name, as the draft spells it (HTTP header names are case-insensitive). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The longest key, in characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a key answers its first result; after that it is forgotten and may be used again. */
export const IDEMPOTENCY_KEY_LIFETIME_HOURS = 24;

/** Printable ASCII without the double quote and the backslash, which an sf-string escapes. */
const BARE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
/** An sf-string (RFC 8941): printable ASCII and space in double quotes, `\"` and `\\` escaped. */
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

/**
 * The key a header value holds, or null when it is not one: an sf-string of 1 to 255 printable characters, as the
 * draft writes it (`"8e03978e-40d5-43e8-bc93-6894a57f9324"`), or the same characters without quotes, as many
 * clients send them (no space, quote or backslash then).
 */
export function parseIdempotencyKey(value: string): string | null {
  const quoted = SF_STRING.exec(value);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : BARE.test(value) ? value : null;
  return key !== null && key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH ? key : null;
}

/** The header value for a key: the draft's sf-string. */
export function formatIdempotencyKey(key: string): string {
  return `"${key.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
