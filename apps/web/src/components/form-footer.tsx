import { Alert, Button, Group } from '@mantine/core';

import { describeError } from '../lib/errors.ts';

/**
 * The end of a dialog's form: what went wrong when the server refused it for no one field (said as the server said
 * it, or the screen's fallback), then Cancel and the form's own submit button (busy while it is sent).
 */
export function FormFooter({
  failure,
  pending,
  onCancel,
  cancelLabel,
  submitLabel,
  danger = false,
}: {
  failure: unknown;
  pending: boolean;
  onCancel: () => void;
  cancelLabel: string;
  submitLabel: string;
  /** The submit removes or ends something (red). */
  danger?: boolean;
}) {
  return (
    <>
      {failure ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(failure)}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {cancelLabel}
        </Button>
        <Button type="submit" loading={pending} {...(danger ? { color: 'red' } : {})}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
