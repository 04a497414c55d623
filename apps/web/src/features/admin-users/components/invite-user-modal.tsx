import { Alert, Button, Group, Modal, Radio, Select, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  InviteUserInputSchema,
  LOCALES,
  MOBILE_BREAKPOINT_PX,
  ROLES,
  SPECIALTIES,
  USER_SEARCH_MIN_LENGTH,
  type Locale,
  type Role,
} from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { IconCheck } from '../../../components/icons.tsx';
import { useSpecialtyLabel } from '../../../hooks/use-specialty-label.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromServer, fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { invitablePatientsQueryOptions, useInviteUser } from '../api/admin-users-api.ts';

interface Values {
  role: Role;
  email: string;
  firstName: string;
  lastName: string;
  specialty: string | null;
  patientId: string | null;
  language: Locale;
}

const EMPTY: Values = {
  role: 'provider',
  email: '',
  firstName: '',
  lastName: '',
  specialty: null,
  patientId: null,
  language: 'en',
};

/** The input the shared schema checks: only the fields of the chosen role. */
function inputOf(values: Values) {
  const { role, email, language } = values;
  if (role === 'patient') return { role, email, language, patientId: values.patientId ?? '' };
  if (role === 'provider') {
    const { firstName, lastName, specialty } = values;
    return { role, email, language, firstName, lastName, specialty: specialty ?? '' };
  }
  return { role, email, language, firstName: values.firstName, lastName: values.lastName };
}

/**
 * Invite a user: an administrator, a provider (with their specialty), or a patient linked to an existing
 * patient record without an account. The person receives a single-use link to set their password.
 */
export function InviteUserModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin-users');
  const specialtyLabel = useSpecialtyLabel();
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [patientSearch, setPatientSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(patientSearch.trim(), 400);
  const searching = values.role === 'patient' && debouncedSearch.length >= USER_SEARCH_MIN_LENGTH;
  const patients = useQuery({ ...invitablePatientsQueryOptions(debouncedSearch), enabled: opened && searching });
  const invite = useInviteUser();

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => {
      const { [key]: _removed, ...rest } = current;
      return rest;
    });
  };

  const close = () => {
    if (invite.isPending) return;
    setValues(EMPTY);
    setErrors({});
    setPatientSearch('');
    invite.reset();
    onClose();
  };

  const errorFor = (field: keyof Values, label: string) => {
    const text = errors[field];
    if (text === undefined) return undefined;
    if (field === 'patientId') return t('inviteForm.choosePatient');
    return errorText(text, { label });
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (invite.isPending) return;
    const parsed = InviteUserInputSchema.safeParse(inputOf(values));
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setErrors({});
    invite.mutate(parsed.data, {
      onSuccess: () => {
        notifications.show({
          color: 'teal',
          icon: <IconCheck size={18} />,
          message: t('done.invite', { email: parsed.data.email }),
        });
        close();
      },
      onError: (error) => {
        setErrors(fieldErrorsFromServer(error) ?? {});
      },
    });
  };

  const serverFailure = invite.error && !fieldErrorsFromServer(invite.error) ? describeError(invite.error) : null;
  const fieldFailure =
    invite.error && fieldErrorsFromServer(invite.error) && Object.keys(errors).length === 0
      ? describeError(invite.error)
      : null;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('inviteForm.title')}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      size="lg"
      fullScreen={isMobile ?? false}
      closeButtonProps={{ 'aria-label': t('inviteForm.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('inviteForm.intro')}
          </Text>
          <Stack gap={4}>
            <Text size="sm" fw={500} id="invite-role-label">
              {t('inviteForm.role')}
            </Text>
            <SegmentedControl
              aria-labelledby="invite-role-label"
              value={values.role}
              onChange={(value) => {
                set('role', value);
              }}
              data={ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
              fullWidth
            />
          </Stack>
          {values.role === 'patient' ? (
            <>
              <TextInput
                label={t('inviteForm.patientSearch')}
                description={t('inviteForm.patientSearchHint')}
                value={patientSearch}
                onChange={(event) => {
                  setPatientSearch(event.currentTarget.value);
                }}
                type="search"
                maxLength={100}
              />
              {searching ? (
                patients.isPending ? (
                  <Text size="sm" role="status">
                    …
                  </Text>
                ) : patients.isError ? (
                  <Alert color="red" variant="light" role="alert">
                    {describeError(patients.error)}
                  </Alert>
                ) : patients.data.length === 0 ? (
                  <Text size="sm">{t('inviteForm.noPatients')}</Text>
                ) : (
                  <Radio.Group
                    label={t('inviteForm.patientRecord')}
                    value={values.patientId}
                    onChange={(id) => {
                      const chosen = patients.data.find((p) => p.id === id);
                      set('patientId', id);
                      if (chosen && !values.email) set('email', chosen.email);
                    }}
                    error={errorFor('patientId', t('inviteForm.patientRecord'))}
                    required
                  >
                    <Stack gap="xs" mt={4}>
                      {patients.data.map((p) => (
                        <Radio
                          key={p.id}
                          value={p.id}
                          label={`${p.firstName} ${p.lastName}, ${t('inviteForm.patientBorn', { date: p.dateOfBirth })}`}
                          description={p.email}
                        />
                      ))}
                    </Stack>
                  </Radio.Group>
                )
              ) : errors['patientId'] ? (
                <Text size="sm" c="red.9" role="alert">
                  {t('inviteForm.choosePatient')}
                </Text>
              ) : null}
            </>
          ) : (
            <Group grow align="flex-start" wrap="wrap" gap="sm">
              <TextInput
                label={t('inviteForm.firstName')}
                value={values.firstName}
                onChange={(event) => {
                  set('firstName', event.currentTarget.value);
                }}
                error={errorFor('firstName', t('inviteForm.firstName'))}
                required
                miw={200}
              />
              <TextInput
                label={t('inviteForm.lastName')}
                value={values.lastName}
                onChange={(event) => {
                  set('lastName', event.currentTarget.value);
                }}
                error={errorFor('lastName', t('inviteForm.lastName'))}
                required
                miw={200}
              />
            </Group>
          )}
          <TextInput
            label={t('inviteForm.email')}
            type="email"
            value={values.email}
            onChange={(event) => {
              set('email', event.currentTarget.value);
            }}
            error={errorFor('email', t('inviteForm.email'))}
            required
            autoComplete="off"
          />
          {values.role === 'provider' ? (
            <Select
              label={t('inviteForm.specialty')}
              data={SPECIALTIES.map((value) => ({ value, label: specialtyLabel(value) }))}
              value={values.specialty}
              onChange={(value) => {
                set('specialty', value);
              }}
              error={errorFor('specialty', t('inviteForm.specialty'))}
              required
            />
          ) : null}
          <Select
            label={t('inviteForm.language')}
            data={LOCALES.map((value) => ({ value, label: t(`inviteForm.languages.${value}`) }))}
            value={values.language}
            onChange={(value) => {
              set('language', value ?? 'en');
            }}
            allowDeselect={false}
          />
          {(serverFailure ?? fieldFailure) ? (
            <Alert color="red" variant="light" role="alert">
              {t('failed', { message: serverFailure ?? fieldFailure })}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={close} disabled={invite.isPending}>
              {t('inviteForm.cancel')}
            </Button>
            <Button type="submit" loading={invite.isPending}>
              {t('inviteForm.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
