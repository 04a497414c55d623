import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

// The encryption of a backup file (decision 037): AES-256-GCM in chunks (the STREAM construction). Each chunk of
// at most CHUNK_BYTES is sealed on its own, with a nonce that counts the chunks and additional data that binds
// it to the file's header and says whether it is the last one. So a reader authenticates as it goes (a wrong
// key fails on the first chunk, before anything is restored), and a file cut short, reordered or spliced from
// another backup fails too. The key is derived per file (HKDF with a random salt in the header), so nonces
// never repeat under one key.

const MAGIC = 'TELEHEALTH-BACKUP 1\n';
const CHUNK_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const KDF_INFO = 'telehealth-backup-v1';

/** Where the key of a backup comes from: BACKUP_ENCRYPTION_KEY, or derived from a data key. */
export interface BackupKey {
  source: 'backup-key' | 'data-key';
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

export interface BackupHeader {
  format: 1;
  createdAt: string;
  keySource: BackupKey['source'];
  keyId: string;
  salt: string;
}

export class BackupKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupKeyError';
  }
}

function fileKey(master: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', master, salt, KDF_INFO, 32));
}

function nonceOf(counter: number): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeBigUInt64BE(BigInt(counter), 4);
  return nonce;
}

function aad(header: Buffer, final: boolean): Buffer {
  return Buffer.concat([header, Buffer.from([final ? 1 : 0])]);
}

/** The header's bytes: the magic line and one line of JSON. */
function headerBytes(header: BackupHeader): Buffer {
  return Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`, 'utf8');
}

/** A stream that writes the header, then the input sealed in chunks (each: 4-byte length, ciphertext, tag). */
export function encryptStream(key: BackupKey, createdAt: Date): Transform {
  const salt = randomBytes(32);
  const header = headerBytes({
    format: 1,
    createdAt: createdAt.toISOString(),
    keySource: key.source,
    keyId: key.id,
    salt: salt.toString('base64'),
  });
  const k = fileKey(key.key, salt);
  let counter = 0;
  let pending = Buffer.alloc(0);
  let started = false;
  const seal = (plain: Buffer, final: boolean): Buffer => {
    const cipher = createCipheriv('aes-256-gcm', k, nonceOf(counter++), { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(header, final));
    const body = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    return Buffer.concat([length, body]);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (!started) {
        this.push(header);
        started = true;
      }
      pending = Buffer.concat([pending, chunk]);
      // Keep at least one byte back: the last chunk must be sealed as the last.
      while (pending.length > CHUNK_BYTES) {
        this.push(seal(pending.subarray(0, CHUNK_BYTES), false));
        pending = pending.subarray(CHUNK_BYTES);
      }
      done();
    },
    flush(done: TransformCallback) {
      if (!started) this.push(header);
      this.push(seal(pending, true));
      done();
    },
  });
}

/** Reads a backup file's header (to pick its key) from the first bytes of the file. */
export function readHeader(first: Buffer): { header: BackupHeader; length: number } {
  const magic = first.subarray(0, MAGIC.length).toString('utf8');
  if (magic !== MAGIC) throw new BackupKeyError('This file is not a backup written by npm run backup.');
  const end = first.indexOf(0x0a, MAGIC.length);
  if (end < 0) throw new BackupKeyError('The backup file is damaged: its header is incomplete.');
  const header = JSON.parse(first.subarray(MAGIC.length, end).toString('utf8')) as BackupHeader;
  if (header.format !== 1) throw new BackupKeyError(`The backup's format ${String(header.format)} is not known.`);
  return { header, length: end + 1 };
}

/**
 * The reverse of encryptStream: reads the header, asks `keyFor` for the master key it names, and passes on the
 * authenticated plaintext. Any chunk that fails authentication, or an end without the last chunk, errors.
 */
export function decryptStream(keyFor: (header: BackupHeader) => Buffer): Transform {
  let buffered = Buffer.alloc(0);
  let headerRaw: Buffer | null = null;
  let k: Buffer | null = null;
  let counter = 0;
  let finished = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      buffered = Buffer.concat([buffered, chunk]);
      try {
        if (!headerRaw) {
          if (buffered.indexOf(0x0a, MAGIC.length) < 0 && buffered.length < 4096) return done();
          const { header, length } = readHeader(buffered);
          headerRaw = buffered.subarray(0, length);
          k = fileKey(keyFor(header), Buffer.from(header.salt, 'base64'));
          buffered = buffered.subarray(length);
        }
        while (buffered.length >= 4) {
          const size = buffered.readUInt32BE(0);
          if (buffered.length < 4 + size) break;
          if (finished) throw new BackupKeyError('The backup file has data after its end: it was changed.');
          const body = buffered.subarray(4, 4 + size);
          buffered = buffered.subarray(4 + size);
          this.push(open(k!, headerRaw, body, counter++, (final) => (finished = final)));
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done: TransformCallback) {
      if (!finished || buffered.length > 0) {
        done(new BackupKeyError('The backup file is incomplete (cut short): it cannot be restored.'));
      } else done();
    },
  });
}

function open(k: Buffer, header: Buffer, body: Buffer, counter: number, setFinal: (final: boolean) => void): Buffer {
  if (body.length < TAG_BYTES) throw new BackupKeyError('The backup file is damaged.');
  for (const final of [false, true]) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', k, nonceOf(counter), { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(header, final));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      const plain = Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
      setFinal(final);
      return plain;
    } catch {
      // Try as the last chunk, then give up.
    }
  }
  throw new BackupKeyError(
    counter === 0
      ? 'The backup cannot be decrypted with the configured key: it was made under another key (or the file was changed).'
      : 'The backup file was changed or damaged: a part of it fails authentication.',
  );
}
