import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  BIO_MAX_LENGTH,
  INVITATION_VALID_HOURS,
  MAX_EXPERIENCE_YEARS,
  MOBILE_BREAKPOINT_PX,
  SPECIALTIES,
} from '@telehealth/shared';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { IconCheck } from '../../../components/icons.tsx';
import { useSpecialtyLabel } from '../../../hooks/use-specialty-label.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromServer, hasPublicMessage, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useCreateDoctor } from '../api/providers-api.ts';
import {
  emptyProviderFormValues,
  PROVIDER_FORM_FIELDS,
  validateCreateDoctor,
  type ProviderFormField,
  type ProviderFormValues,
} from '../utils/provider-form-values.ts';

function fieldId(field: ProviderFormField): string {
  return `provider-${field}`;
}

/**
 * Administrators add a provider: the record and a provider account, which is e-mailed an invitation to set a
 * password unless the administrator unticks it (docs/decisions/011-provider-invitations.md).
 */
export function AddProviderModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('providers');
  const specialtyLabel = useSpecialtyLabel();
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`);
  const [values, setValues] = useState<ProviderFormValues>(emptyProviderFormValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  /** A field's message in the reader's language (the schema and the server say it in English). */
  const errorFor = (field: string, fieldLabel: string) => {
    const text = errors[field];
    return text === undefined ? undefined : errorText(text, { label: fieldLabel });
  };
  const [failure, setFailure] = useState<string | null>(null);
  const createDoctor = useCreateDoctor();

  const reset = () => {
    setValues(emptyProviderFormValues());
    setErrors({});
    setFailure(null);
    createDoctor.reset();
  };

  const close = () => {
    if (createDoctor.isPending) return;
    reset();
    onClose();
  };

  const setField = <F extends ProviderFormField>(field: F, value: ProviderFormValues[F]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _removed, ...rest } = current;
      return rest;
    });
  };

  const showErrors = (fieldErrors: FieldErrors) => {
    setErrors(fieldErrors);
    const first = PROVIDER_FORM_FIELDS.find((field) => fieldErrors[field] !== undefined);
    if (first) document.getElementById(fieldId(first))?.focus();
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (createDoctor.isPending) return;
    const result = validateCreateDoctor(values);
    if (!result.ok) {
      setFailure(null);
      showErrors(result.errors);
      return;
    }
    setFailure(null);
    createDoctor.mutate(result.data, {
      onSuccess: (doctor) => {
        const name = `${doctor.firstName} ${doctor.lastName}`;
        // An existing account that already has a password is linked, and not invited.
        const invited = result.data.sendInvitation === true && doctor.invitationExpiresAt !== null;
        notifications.show({
          color: 'teal',
          icon: <IconCheck size={18} />,
          message: [
            t('form.created', { name }),
            invited
              ? t('form.invitationSent', { email: doctor.email })
              : doctor.invitationPending
                ? t('form.invitationNotSent')
                : null,
          ]
            .filter(Boolean)
            .join(' '),
          closeButtonProps: { 'aria-label': t('closeNotification') },
        });
        reset();
        onClose();
      },
      onError: (error) => {
        const fieldErrors = fieldErrorsFromServer(error) ?? {};
        if (Object.keys(fieldErrors).length > 0) showErrors(fieldErrors);
        setFailure(hasPublicMessage(error) ? describeError(error) : t('form.failed'));
      },
    });
  };

  const bioLength = values.bio.length;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('form.title')}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-xl)' } }}
      closeButtonProps={{ 'aria-label': t('form.close') }}
      size="lg"
      fullScreen={isMobile ?? false}
    >
      <form onSubmit={onSubmit} noValidate aria-label={t('form.title')}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('form.help')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
            <TextInput
              id={fieldId('firstName')}
              label={t('form.firstName')}
              required
              value={values.firstName}
              onChange={(event) => {
                setField('firstName', event.currentTarget.value);
              }}
              error={errorFor('firstName', t('form.firstName'))}
              autoComplete="off"
              data-autofocus
            />
            <TextInput
              id={fieldId('lastName')}
              label={t('form.lastName')}
              required
              value={values.lastName}
              onChange={(event) => {
                setField('lastName', event.currentTarget.value);
              }}
              error={errorFor('lastName', t('form.lastName'))}
              autoComplete="off"
            />
            <TextInput
              id={fieldId('email')}
              label={t('form.email')}
              type="email"
              inputMode="email"
              required
              placeholder={t('form.emailPlaceholder')}
              value={values.email}
              onChange={(event) => {
                setField('email', event.currentTarget.value);
              }}
              error={errorFor('email', t('form.email'))}
              autoComplete="off"
            />
            <TextInput
              id={fieldId('phone')}
              label={t('form.phone')}
              type="tel"
              inputMode="tel"
              placeholder={t('form.phonePlaceholder')}
              value={values.phone}
              onChange={(event) => {
                setField('phone', event.currentTarget.value);
              }}
              error={errorFor('phone', t('form.phone'))}
              autoComplete="off"
            />
            <Select
              id={fieldId('specialty')}
              label={t('form.specialty')}
              placeholder={t('form.specialtyPlaceholder')}
              required
              data={SPECIALTIES.map((specialty) => ({ value: specialty, label: specialtyLabel(specialty) }))}
              value={values.specialty}
              onChange={(value) => {
                setField('specialty', value);
              }}
              error={errorFor('specialty', t('form.specialty'))}
              allowDeselect={false}
            />
            <NumberInput
              id={fieldId('experience')}
              label={t('form.experience')}
              min={0}
              max={MAX_EXPERIENCE_YEARS}
              allowDecimal={false}
              allowNegative={false}
              value={values.experience}
              onChange={(value) => {
                setField('experience', value);
              }}
              error={errorFor('experience', t('form.experience'))}
            />
          </SimpleGrid>
          <Textarea
            id={fieldId('bio')}
            label={t('form.bio')}
            autosize
            minRows={3}
            maxRows={8}
            value={values.bio}
            onChange={(event) => {
              setField('bio', event.currentTarget.value);
            }}
            error={errorFor('bio', t('form.bio'))}
            description={
              <Text span size="xs" c={bioLength > BIO_MAX_LENGTH ? 'red.9' : 'dimmed'}>
                {t('form.bioHint')} {t('form.characters', { count: bioLength, max: BIO_MAX_LENGTH })}
              </Text>
            }
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
          <Checkbox
            id="provider-sendInvitation"
            label={t('form.sendInvitation')}
            description={t('form.sendInvitationHint', { hours: INVITATION_VALID_HOURS })}
            checked={values.sendInvitation}
            onChange={(event) => {
              const { checked } = event.currentTarget;
              setValues((current) => ({ ...current, sendInvitation: checked }));
            }}
          />
          {failure ? (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={createDoctor.isPending}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" disabled={createDoctor.isPending}>
              {createDoctor.isPending ? t('form.submitting') : t('form.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
