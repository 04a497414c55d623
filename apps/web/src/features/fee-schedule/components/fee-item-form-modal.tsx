import { Alert, Button, Checkbox, Group, Modal, Stack, TextInput } from '@mantine/core';
import { BILLING_LIMITS } from '@telehealth/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { describeError } from '../../../lib/errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { fieldErrorsFromServer } from '../../../lib/form-errors.ts';
import { useSaveFeeItem, type FeeItem } from '../api/fee-schedule-api.ts';
import { useFeeItemForm, validateFeeItem } from '../hooks/use-fee-item-form.ts';

/** Adding a service (`item` null) or changing one, in a dialog. */
export function FeeItemFormModal({
  item,
  opened,
  onClose,
  onSaved,
}: {
  item: FeeItem | null;
  opened: boolean;
  onClose: () => void;
  onSaved: (saved: FeeItem) => void;
}) {
  const { t } = useTranslation('billing-setup');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('feeSchedule.form.cancel') }}
      title={item ? t('feeSchedule.form.changeTitle', { code: item.code }) : t('feeSchedule.form.addTitle')}
    >
      {/* A new form per service opened, so its values start from that service. */}
      {opened ? <FeeItemForm key={item?.id ?? 'new'} item={item} onCancel={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

export function FeeItemForm({
  item,
  onCancel,
  onSaved,
}: {
  item: FeeItem | null;
  onCancel: () => void;
  onSaved: (saved: FeeItem) => void;
}) {
  const { t } = useTranslation('billing-setup');
  const form = useFeeItemForm(item);
  const { values, errors } = form;
  const save = useSaveFeeItem();
  const [failed, setFailed] = useState<string | null>(null);
  const labels = {
    code: t('feeSchedule.form.code'),
    shortName: t('feeSchedule.form.shortName'),
    fee: t('feeSchedule.form.fee'),
  };
  const errorOf = (field: keyof typeof labels) => {
    const message = errors[field];
    return message ? errorText(message, { label: labels[field] }) : undefined;
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setFailed(null);
    const checked = validateFeeItem(values, item?.id);
    if (!checked.ok) {
      form.setErrors(checked.errors);
      return;
    }
    form.setErrors({});
    save.mutate(checked.input, {
      onSuccess: onSaved,
      onError: (error) => {
        const fields = fieldErrorsFromServer(error);
        if (fields && Object.keys(fields).length > 0) {
          const { feeCents, ...rest } = fields;
          form.setErrors(feeCents ? { ...rest, fee: feeCents } : rest);
        } else setFailed(describeError(error));
      },
    });
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={item ? t('feeSchedule.form.changeTitle', { code: item.code }) : t('feeSchedule.form.addTitle')}
    >
      <Stack gap="sm">
        <TextInput
          label={labels.code}
          description={t('feeSchedule.form.codeDescription')}
          required
          value={values.code}
          onChange={(event) => form.setField('code', event.currentTarget.value)}
          maxLength={5}
          autoComplete="off"
          error={errorOf('code')}
          data-autofocus
        />
        <TextInput
          label={labels.shortName}
          description={t('feeSchedule.form.shortNameDescription')}
          required
          value={values.shortName}
          onChange={(event) => form.setField('shortName', event.currentTarget.value)}
          maxLength={BILLING_LIMITS.shortNameMax}
          autoComplete="off"
          error={errorOf('shortName')}
        />
        <TextInput
          label={labels.fee}
          description={t('feeSchedule.form.feeDescription')}
          required
          inputMode="decimal"
          leftSection="$"
          value={values.fee}
          onChange={(event) => form.setField('fee', event.currentTarget.value)}
          autoComplete="off"
          error={errorOf('fee')}
        />
        <Checkbox
          label={t('feeSchedule.form.addOn')}
          description={t('feeSchedule.form.addOnDescription')}
          checked={values.addOn}
          onChange={(event) => form.setField('addOn', event.currentTarget.checked)}
        />
        <Checkbox
          label={t('feeSchedule.form.active')}
          description={t('feeSchedule.form.activeDescription')}
          checked={values.active}
          onChange={(event) => form.setField('active', event.currentTarget.checked)}
        />
        {failed ? (
          <Alert color="red" variant="light" role="alert">
            {failed}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('feeSchedule.form.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('feeSchedule.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
