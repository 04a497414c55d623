import { useState } from 'react';

/**
 * The Idempotency-Key of one form submission (decision 044): the same key while the same submission is tried
 * again (a reply that never came, a retry after an error), a new one once it succeeded, so the server writes
 * each submission once however often it is sent.
 */
export class SubmissionKey {
  #key = crypto.randomUUID();

  /** Runs `send` with the submission's key; a success starts the next submission with a new key. */
  async send<T>(send: (idempotencyKey: string) => Promise<T>): Promise<T> {
    const key = this.#key;
    const result = await send(key);
    if (this.#key === key) this.#key = crypto.randomUUID();
    return result;
  }
}

/** A SubmissionKey for the life of the component (the form): made when it mounts. */
export function useSubmissionKey(): SubmissionKey {
  const [submission] = useState(() => new SubmissionKey());
  return submission;
}
