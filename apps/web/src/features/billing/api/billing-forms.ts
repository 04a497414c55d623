import { AdjustmentInputSchema, AmountInputSchema, PaymentInputSchema } from '@telehealth/shared';
import type { z } from 'zod';

/** The payment form: the shared schema, its amount typed ("150.00") and parsed to cents. */
export const PaymentFormSchema = PaymentInputSchema.extend({ amountCents: AmountInputSchema });
export type PaymentFormData = z.output<typeof PaymentFormSchema>;

/** The adjustment form: the shared schema, its amount typed and parsed to cents. */
export const AdjustmentFormSchema = AdjustmentInputSchema.extend({ amountCents: AmountInputSchema });
export type AdjustmentFormData = z.output<typeof AdjustmentFormSchema>;
