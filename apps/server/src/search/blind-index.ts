import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** Words shorter than this are not indexed and not searched for (too common to find anything). */
export const MIN_SEARCH_WORD = 2;
/** Beginnings are indexed from this many characters up to the whole word (at most MAX_PREFIX). */
const MIN_PREFIX = 2;
const MAX_PREFIX = 24;

/**
 * The blind index that lets encrypted text be searched: clinical notes (decision 027) and secure messages (decision
 * 029). Each word of the texts, folded (lower case, accents removed), and each of its beginnings, becomes a keyed
 * HMAC (truncated to 12 bytes); the row stores the set, and a search asks for the HMACs of its words with a GIN
 * index (`search_tokens @> ARRAY[...]`). Without the key the tokens say nothing; what they can reveal is which
 * rows share a word, which is why they are keyed and the key is not the data keys' and never leaves the server.
 * Each domain has its own key (derived from the secret and the domain's `purpose`), so tokens of a note and of a
 * message never match each other.
 */
export class BlindIndex {
  /** A key object, not bytes: an HMAC with bytes imports the key anew each time, several times slower. */
  readonly #key: KeyObject;
  /** Names the key, so that rows indexed under an earlier one are re-indexed at start. */
  readonly keyId: string;

  constructor(secret: string, purpose: string) {
    const key = createHmac('sha256', secret).update(purpose).digest();
    this.#key = createSecretKey(key);
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 12);
  }

  /** The tokens of a row's searchable texts. */
  tokensOf(texts: readonly string[]): string[] {
    // Each beginning once: a note repeats its words, and an HMAC costs far more than a set lookup.
    const beginnings = new Set<string>();
    for (const word of words(texts.join(' '))) {
      for (let end = Math.min(MIN_PREFIX, word.length); end <= Math.min(word.length, MAX_PREFIX); end++) {
        beginnings.add(word.slice(0, end));
      }
    }
    return [...beginnings].map((text) => this.#token(text));
  }

  /** The tokens a search term must all match: each word as a beginning (cut to MAX_PREFIX). */
  queryTokens(term: string): string[] {
    return [...new Set(words(term).map((w) => this.#token(w.slice(0, MAX_PREFIX))))];
  }

  #token(text: string): string {
    return createHmac('sha256', this.#key).update(text).digest('base64url').slice(0, 16);
  }
}

/** The notes' index: the purpose is the one the notes were first indexed under, so their tokens stay valid. */
export const NOTES_SEARCH_PURPOSE = 'notes.search-index';
/** The secure messages' index (subjects and message text). */
export const MESSAGES_SEARCH_PURPOSE = 'messages.search-index';

/** Lower case, accents removed, split on anything that is not a letter or digit. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= MIN_SEARCH_WORD);
}
