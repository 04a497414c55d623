import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';

/** One data key: an id the operator chose (stored with every value it encrypts) and 32 random bytes. */
export interface DataKey {
  id: string;
  key: Buffer;
}

/** Where an encrypted value belongs. It is authenticated with the value, so a value moved elsewhere fails. */
export interface FieldContext {
  table: string;
  column: string;
  /** The row's id. */
  id: string;
}

/** Every encrypted value starts with this; anything else in an encrypted column is refused. */
export const ENCRYPTED_PREFIX = 'enc:';
const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * A value that cannot be decrypted: changed, copied from another row or column, under a key the keyring does not
 * hold, or not encrypted at all. The message names the table, column, row and key id, never the value, so it can
 * be logged as it is.
 */
export class EncryptedValueError extends Error {
  readonly code = 'ENCRYPTED_VALUE_INVALID';
  readonly table: string;
  readonly column: string;
  readonly rowId: string;

  constructor(context: FieldContext, problem: string) {
    super(`Cannot decrypt ${context.table}.${context.column} of row ${context.id}: ${problem}`);
    this.name = 'EncryptedValueError';
    this.table = context.table;
    this.column = context.column;
    this.rowId = context.id;
  }
}

/**
 * The data keys: AES-256-GCM with a random 12-byte IV per value and the value's table, column and row id as
 * additional authenticated data. The first key encrypts; every key decrypts, so keys can rotate while the
 * server runs (decision 016).
 *
 * Stored text: `enc:v1:<key id>:<iv>:<ciphertext and 16-byte tag>`, both parts base64url.
 */
export class Keyring {
  readonly currentKeyId: string;
  readonly #keys: ReadonlyMap<string, KeyObject>;
  readonly #currentKey: KeyObject;
  readonly #currentPrefix: string;

  constructor(keys: readonly DataKey[]) {
    const [current] = keys;
    if (!current) throw new Error('A keyring needs at least one data key');
    const map = new Map<string, KeyObject>();
    for (const { id, key } of keys) {
      if (!KEY_ID.test(id)) throw new Error(`Data key id "${id}" may hold only letters, digits, ".", "_" and "-"`);
      if (key.length !== KEY_BYTES) throw new Error(`Data key "${id}" must be ${KEY_BYTES} bytes`);
      if (map.has(id)) throw new Error(`Data key id "${id}" is used twice`);
      // A KeyObject, not the Buffer: OpenSSL then prepares the key once instead of on every value (10x faster).
      map.set(id, createSecretKey(key));
    }
    this.#keys = map;
    this.currentKeyId = current.id;
    this.#currentKey = map.get(current.id)!;
    this.#currentPrefix = `${ENCRYPTED_PREFIX}${FORMAT}:${current.id}:`;
  }

  /** Every key id, the current one first. */
  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  /** Encrypts under the current key, bound to where the value is stored. */
  encrypt(plaintext: string, context: FieldContext): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#currentKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(this.currentKeyId, context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${this.#currentPrefix}${iv.toString('base64url')}:${body.toString('base64url')}`;
  }

  /** The plaintext of a stored value; throws EncryptedValueError when it is not exactly what was stored there. */
  decrypt(stored: string, context: FieldContext): string {
    const parts = stored.split(':');
    if (parts.length !== 5 || `${parts[0]}:` !== ENCRYPTED_PREFIX || parts[1] !== FORMAT) {
      throw new EncryptedValueError(context, 'not an encrypted value of a known format');
    }
    const keyId = parts[2]!;
    const key = this.#keys.get(keyId);
    if (!key)
      throw new EncryptedValueError(context, `it is under data key "${keyId}", which the keyring does not hold`);
    const iv = Buffer.from(parts[3]!, 'base64url');
    const body = Buffer.from(parts[4]!, 'base64url');
    if (iv.length !== IV_BYTES || body.length < TAG_BYTES) {
      throw new EncryptedValueError(context, 'the value is truncated or damaged');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(keyId, context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new EncryptedValueError(
        context,
        `it fails authentication under data key "${keyId}" (changed, or copied from another row or column)`,
      );
    }
  }

  /**
   * Encrypts bytes (a part of a recording) under the current key, bound to where they are stored. The result is
   * `enc:v1:<key id>:` in ASCII, then the IV, the ciphertext and the tag.
   */
  encryptBytes(plaintext: Buffer, context: FieldContext): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#currentKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(this.currentKeyId, context));
    return Buffer.concat([
      Buffer.from(this.#currentPrefix, 'ascii'),
      iv,
      cipher.update(plaintext),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
  }

  /** The bytes encryptBytes stored; throws EncryptedValueError when they are not exactly what was stored there. */
  decryptBytes(stored: Buffer, context: FieldContext): Buffer {
    const head = stored.subarray(0, Math.min(stored.length, 80)).toString('latin1');
    const match = /^enc:v1:([A-Za-z0-9][A-Za-z0-9._-]{0,63}):/.exec(head);
    if (!match) throw new EncryptedValueError(context, 'not encrypted bytes of a known format');
    const keyId = match[1]!;
    const key = this.#keys.get(keyId);
    if (!key)
      throw new EncryptedValueError(context, `they are under data key "${keyId}", which the keyring does not hold`);
    const body = stored.subarray(match[0].length);
    if (body.length < IV_BYTES + TAG_BYTES) throw new EncryptedValueError(context, 'the bytes are truncated');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(keyId, context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new EncryptedValueError(context, `they fail authentication under data key "${keyId}"`);
    }
  }

  /** Whether a stored value is already under the current key (key rotation skips those). */
  isCurrent(stored: string): boolean {
    return stored.startsWith(this.#currentPrefix);
  }

  /** The start of every value under the current key. */
  get currentPrefix(): string {
    return this.#currentPrefix;
  }

  /**
   * A key for another purpose (backups, signatures of pruned audit entries: decision 037), derived with HKDF from
   * the data key `keyId` (the current one by default); null when the keyring does not hold that key.
   */
  deriveKey(purpose: string, keyId: string = this.currentKeyId): { keyId: string; key: Buffer } | null {
    const key = this.#keys.get(keyId);
    if (!key) return null;
    return { keyId, key: Buffer.from(hkdfSync('sha256', key.export(), Buffer.alloc(0), purpose, 32)) };
  }
}

/** Binds a value to its format, key and place; JSON keeps the parts apart whatever they contain. */
function additionalData(keyId: string, context: FieldContext): Buffer {
  return Buffer.from(JSON.stringify([FORMAT, keyId, context.table, context.column, context.id]), 'utf8');
}

/**
 * Reads data keys as an operator writes them: `id:base64key` entries separated by commas or new lines, the
 * current key first; `#` starts a comment. Problems never quote key material.
 */
export function parseDataKeys(text: string): { keys: DataKey[] } | { problems: string[] } {
  const entries = text
    .split('\n')
    .map((line) => line.replace(/#.*$/, ''))
    .join(',')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return { problems: [`no key: write id:key, for example ${EXAMPLE_ENTRY}`] };
  const problems: string[] = [];
  const keys: DataKey[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    const id = colon > 0 ? entry.slice(0, colon).trim() : '';
    const material = colon > 0 ? entry.slice(colon + 1).trim() : '';
    const label = KEY_ID.test(id) ? `key "${id}"` : `entry ${index + 1}`;
    if (!KEY_ID.test(id)) {
      problems.push(
        `${label}: write id:key, the id of letters, digits, ".", "_" or "-" (for example ${EXAMPLE_ENTRY})`,
      );
      return;
    }
    if (seen.has(id)) problems.push(`${label}: the id is used twice`);
    seen.add(id);
    const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(material) ? Buffer.from(material, 'base64') : Buffer.alloc(0);
    if (key.length !== KEY_BYTES) {
      problems.push(`${label}: the key must be ${KEY_BYTES} random bytes in base64 (openssl rand -base64 32)`);
      return;
    }
    keys.push({ id, key });
  });
  return problems.length > 0 ? { problems } : { keys };
}

const EXAMPLE_ENTRY = '2026-11:$(openssl rand -base64 32)';

/** A new key entry, `id:base64key`. */
export function generateDataKeyEntry(id: string): string {
  return `${id}:${randomBytes(KEY_BYTES).toString('base64')}`;
}
