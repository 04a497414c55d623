import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import type { z } from 'zod';

import { afterMutation } from '../lib/after-mutation.ts';
import { errorText } from '../lib/error-text.ts';
import { fieldErrorsByPath, fieldErrorsFromServer, type FieldErrors } from '../lib/form-errors.ts';

/**
 * A form checked by a shared schema and sent with a mutation: `submit` parses what `read()` answers, shows the
 * schema's problems by field (by their whole path, "dose.doseAmount", as the server names them) and sends nothing;
 * otherwise sends it, shows the server's field problems the same way, and calls `onDone` once it succeeded (even if
 * the form has gone by then, see afterMutation). `fieldError(path)` is the field's message in the page's language;
 * `failure` is the mutation's error when it named no field (the form shows it above its buttons).
 */
export function useSchemaForm<Schema extends z.ZodType, Result>({
  schema,
  read,
  mutation,
  onDone,
}: {
  schema: Schema;
  read: () => unknown;
  mutation: Pick<UseMutationResult<Result, Error, z.output<Schema>>, 'mutateAsync' | 'error' | 'isPending'>;
  onDone: (result: Result) => void;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = schema.safeParse(read());
    if (!parsed.success) {
      setErrors(fieldErrorsByPath(parsed.error));
      return;
    }
    setErrors({});
    const sent = mutation.mutateAsync(parsed.data);
    sent.catch((error: unknown) => setErrors(fieldErrorsFromServer(error) ?? {}));
    afterMutation(sent, onDone);
  };
  const fieldError = (path: string) => (errors[path] ? errorText(errors[path]) : undefined);
  const failure = mutation.error && Object.keys(errors).length === 0 ? mutation.error : null;
  return { submit, errors, fieldError, failure, pending: mutation.isPending };
}
