// Apart from auth.ts: the result names a message of the catalogue, and the catalogue collects auth.ts's messages
// (a file the catalogue imports never imports it back, decision 053).
import type { CurrentUser, SignInStep } from './auth.ts';
import type { MessageRef } from './message-catalogue.ts';

export interface SignInResult {
  success: boolean;
  user: CurrentUser | null;
  /** The specification's field: the message in English. */
  error: string | null;
  /** The same message by id and parameters, so the browser says it in its own language. */
  errorMessage: MessageRef | null;
  nextStep: SignInStep | null;
}
