import {
  AmountInputSchema,
  issueMessage,
  FeeScheduleItemInputSchema,
  parseAmountToCents,
  type FeeScheduleItemInput,
} from '@telehealth/shared';
import { useState } from 'react';

import { fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import type { FeeItem } from '../api/fee-schedule-api.ts';

/** A service as the form holds it: the fee as typed ("150", "150.00"). */
export interface FeeItemFormValues {
  code: string;
  shortName: string;
  fee: string;
  addOn: boolean;
  active: boolean;
}

/** "150.00" for 15000 cents: what the field shows when changing a service (no currency sign, no grouping). */
export function feeAsTyped(cents: number): string {
  return (cents / 100).toFixed(2);
}

export function toFormValues(item: FeeItem | null): FeeItemFormValues {
  return item
    ? {
        code: item.code,
        shortName: item.shortName,
        fee: feeAsTyped(item.feeCents),
        addOn: item.addOn,
        active: item.active,
      }
    : { code: '', shortName: '', fee: '', addOn: false, active: true };
}

/**
 * The form's values as the API's input, checked with the shared schemas (the server checks them again), or a
 * message per field (`fee` for the amount).
 */
export function validateFeeItem(
  values: FeeItemFormValues,
  id: string | undefined,
): { ok: true; input: FeeScheduleItemInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  // The fee as the other money forms read an amount (AmountInputSchema), except that 0 is allowed here.
  let feeCents = 0;
  if (parseAmountToCents(values.fee) !== 0) {
    const amount = AmountInputSchema.safeParse(values.fee);
    if (amount.success) feeCents = amount.data;
    else errors['fee'] = issueMessage(amount.error.issues[0]!);
  }
  const input = {
    ...(id ? { id } : {}),
    code: values.code,
    shortName: values.shortName,
    feeCents,
    addOn: values.addOn,
    active: values.active,
  };
  const parsed = FeeScheduleItemInputSchema.safeParse(input);
  if (!parsed.success) {
    for (const [field, message] of Object.entries(fieldErrorsFromZod(parsed.error)))
      if (field !== 'feeCents') errors[field] ??= message;
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  // What the schema made of it (the code upper-cased, the name trimmed): the server parses it again.
  const { id: parsedId, ...fields } = parsed.data;
  return { ok: true, input: { ...(parsedId ? { id: parsedId } : {}), ...fields } };
}

/** The add/edit form's state: values, per-field errors, one setter. */
export function useFeeItemForm(item: FeeItem | null) {
  const [values, setValues] = useState<FeeItemFormValues>(() => toFormValues(item));
  const [errors, setErrors] = useState<FieldErrors>({});
  return {
    values,
    errors,
    setErrors,
    setField: <K extends keyof FeeItemFormValues>(field: K, value: FeeItemFormValues[K]) => {
      setValues((previous) => ({ ...previous, [field]: value }));
    },
  };
}
