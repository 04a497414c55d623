// Apart from idempotency-keys.ts, so that the caller (access/caller.ts) can carry it without an import circle.

/** The key of one request to a create mutation, with what identifies its input. */
export interface IdempotentRequest {
  key: string;
  operation: string;
  /** HMAC of the operation and its arguments in canonical JSON: equal inputs, equal hashes; no health data. */
  inputHash: string;
}
