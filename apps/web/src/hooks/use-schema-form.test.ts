import { act, renderHook, waitFor } from '@testing-library/react';
import { ChangeMedicationInputSchema } from '@telehealth/shared';
import type { SubmitEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { GraphQLRequestError } from '../lib/graphql.ts';
import { useSchemaForm } from './use-schema-form.ts';

const event = { preventDefault: () => undefined } as SubmitEvent<HTMLFormElement>;
const DOSE = { doseAmount: 100, doseUnit: 'mg', route: 'oral', frequency: 'once-daily' };

function mutation(result: Promise<unknown>) {
  return { mutateAsync: vi.fn(() => result), error: null, isPending: false };
}

describe('useSchemaForm', () => {
  it("sends nothing while the schema refuses, and names each problem by its field's whole path", () => {
    const sent = mutation(Promise.resolve('ok'));
    const { result } = renderHook(() =>
      useSchemaForm({
        schema: ChangeMedicationInputSchema,
        read: () => ({ id: 'm1', kind: 'dose-changed', reason: '', dose: { ...DOSE, doseAmount: 0 } }),
        mutation: sent,
        onDone: () => undefined,
      }),
    );
    act(() => result.current.submit(event));
    expect(sent.mutateAsync).not.toHaveBeenCalled();
    expect(Object.keys(result.current.errors).sort()).toEqual(['dose.doseAmount', 'reason']);
    expect(result.current.fieldError('id')).toBeUndefined();
  });

  it('sends what the schema made of the input and calls onDone once it succeeded', async () => {
    const sent = mutation(Promise.resolve('saved'));
    const onDone = vi.fn();
    const { result } = renderHook(() =>
      useSchemaForm({
        schema: ChangeMedicationInputSchema,
        read: () => ({ id: 'm1', kind: 'held', reason: ' Surgery ', dose: DOSE }),
        mutation: sent,
        onDone,
      }),
    );
    act(() => result.current.submit(event));
    expect(sent.mutateAsync).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'held', reason: 'Surgery', dose: null }),
    );
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('saved'));
  });

  it("shows the server's field problems by field", async () => {
    const refused = new GraphQLRequestError('graphql', [
      {
        message: 'The date cannot be before the last change',
        extensions: {
          code: 'BAD_USER_INPUT',
          fields: [
            {
              field: 'effectiveDate',
              messageId: 'clinicalRecordMessages.dateBeforeLastChange',
              params: { date: '2026-09-01' },
            },
          ],
        },
      },
    ]);
    const sent = mutation(Promise.reject(refused));
    const onDone = vi.fn();
    const { result } = renderHook(() =>
      useSchemaForm({
        schema: ChangeMedicationInputSchema,
        read: () => ({ id: 'm1', kind: 'held', reason: 'Surgery', effectiveDate: '2026-08-15' }),
        mutation: sent,
        onDone,
      }),
    );
    act(() => result.current.submit(event));
    await waitFor(() =>
      expect(result.current.errors['effectiveDate']).toEqual({
        id: 'clinicalRecordMessages.dateBeforeLastChange',
        params: { date: '2026-09-01' },
      }),
    );
    expect(onDone).not.toHaveBeenCalled();
  });
});
