import { Modal, NativeSelect, Radio, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  ADJUSTMENT_DIRECTIONS,
  BILLING_LIMITS,
  formatCents,
  PAYMENT_METHODS,
  ReversalInputSchema,
  todayIn,
  type AdjustmentDirection,
  type PaymentMethod,
} from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FormFooter } from '../../../components/form-footer.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { useAppConfig } from '../../../lib/auth.ts';
import { useRecordAdjustment, useRecordPayment, useReverseLedgerEntry, type LedgerEntry } from '../api/billing-api.ts';
import { AdjustmentFormSchema, PaymentFormSchema } from '../api/billing-forms.ts';

/** Today in the practice's zone: a payment's default day, and the latest it may be. */
function usePracticeToday(): string {
  const { data: config } = useAppConfig();
  return todayIn(config?.practiceTimeZone ?? 'America/New_York');
}

/** Records a payment received: the amount as typed (parsed to cents), how, the day (not in the future), a reference. */
export function PaymentForm({ patientId, onDone }: { patientId: string; onDone: () => void }) {
  const { t } = useTranslation('billing-ledger');
  const today = usePracticeToday();
  const record = useRecordPayment();
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<PaymentMethod | ''>('');
  const [receivedOn, setReceivedOn] = useState(today);
  const [reference, setReference] = useState('');
  const { submit, fieldError, failure, pending } = useSchemaForm({
    schema: PaymentFormSchema,
    read: () => ({ patientId, amountCents: amount, method: method || undefined, receivedOn, reference }),
    mutation: record,
    onDone,
  });
  return (
    <form onSubmit={submit} noValidate aria-label={t('payment.title')}>
      <Stack gap="sm">
        <TextInput
          label={t('payment.amount')}
          description={t('amountHint')}
          inputMode="decimal"
          required
          data-autofocus
          value={amount}
          onChange={(e) => setAmount(e.currentTarget.value)}
          error={fieldError('amountCents')}
        />
        <NativeSelect
          label={t('payment.method')}
          required
          value={method}
          onChange={(e) => setMethod(e.currentTarget.value as PaymentMethod | '')}
          data={[
            { value: '', label: t('payment.chooseMethod') },
            ...PAYMENT_METHODS.map((m) => ({ value: m, label: t(`methods.${m}`) })),
          ]}
          error={fieldError('method')}
        />
        <TextInput
          type="date"
          label={t('payment.receivedOn')}
          required
          max={today}
          value={receivedOn}
          onChange={(e) => setReceivedOn(e.currentTarget.value)}
          error={fieldError('receivedOn')}
        />
        <TextInput
          label={t('payment.reference')}
          description={t('payment.referenceHint')}
          maxLength={BILLING_LIMITS.referenceMax}
          value={reference}
          onChange={(e) => setReference(e.currentTarget.value)}
          error={fieldError('reference')}
        />
        <FormFooter
          failure={failure}
          pending={pending}
          onCancel={onDone}
          cancelLabel={t('cancel')}
          submitLabel={t('payment.save')}
        />
      </Stack>
    </form>
  );
}

export function PaymentModal({ patientId, onClose }: { patientId: string; onClose: () => void }) {
  const { t } = useTranslation('billing-ledger');
  return (
    <Modal opened onClose={onClose} title={t('payment.title')} closeButtonProps={{ 'aria-label': t('close') }}>
      <PaymentForm patientId={patientId} onDone={onClose} />
    </Modal>
  );
}

/** An adjustment: an amount that lowers (a write-off, a discount) or raises what the patient owes, and why. */
export function AdjustmentModal({ patientId, onClose }: { patientId: string; onClose: () => void }) {
  const { t } = useTranslation('billing-ledger');
  const record = useRecordAdjustment();
  const [amount, setAmount] = useState('');
  const [direction, setDirection] = useState<AdjustmentDirection>('decrease');
  const [reason, setReason] = useState('');
  const { submit, fieldError, failure, pending } = useSchemaForm({
    schema: AdjustmentFormSchema,
    read: () => ({ patientId, amountCents: amount, direction, reason }),
    mutation: record,
    onDone: onClose,
  });
  return (
    <Modal opened onClose={onClose} title={t('adjustment.title')} closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('adjustment.amount')}
            description={t('amountHint')}
            inputMode="decimal"
            required
            data-autofocus
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={fieldError('amountCents')}
          />
          <Radio.Group
            label={t('adjustment.direction')}
            value={direction}
            onChange={(value) => setDirection(value)}
            error={fieldError('direction')}
            required
          >
            <Stack gap={6} mt={4}>
              {ADJUSTMENT_DIRECTIONS.map((d) => (
                <Radio key={d} value={d} label={t(`adjustment.directions.${d}`)} />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea
            label={t('adjustment.reason')}
            required
            autosize
            minRows={2}
            maxLength={BILLING_LIMITS.reasonMax}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={fieldError('reason')}
          />
          <FormFooter
            failure={failure}
            pending={pending}
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={t('adjustment.save')}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** Reverses an entry with its exact opposite (the entry itself is never changed), with the reason. */
export function ReverseEntryModal({ entry, onClose }: { entry: LedgerEntry; onClose: () => void }) {
  const { t, i18n } = useTranslation('billing-ledger');
  const reverse = useReverseLedgerEntry();
  const [reason, setReason] = useState('');
  const { submit, fieldError, failure, pending } = useSchemaForm({
    schema: ReversalInputSchema,
    read: () => ({ entryId: entry.id, reason }),
    mutation: reverse,
    onDone: onClose,
  });
  return (
    <Modal opened onClose={onClose} title={t('reverse.title')} closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            {t('reverse.explain', {
              what: t(`kinds.${entry.kind}`),
              amount: formatCents(Math.abs(entry.amountCents), i18n.language),
            })}
          </Text>
          <Textarea
            label={t('reverse.reason')}
            required
            data-autofocus
            autosize
            minRows={2}
            maxLength={BILLING_LIMITS.reasonMax}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={fieldError('reason')}
          />
          <FormFooter
            failure={failure}
            pending={pending}
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={t('reverse.save')}
            danger
          />
        </Stack>
      </form>
    </Modal>
  );
}
