import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { SPECIALTIES } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { IconCheck } from '../../../components/icons.tsx';
import { useSpecialtyLabel } from '../../../hooks/use-specialty-label.ts';
import { describeError } from '../../../lib/errors.ts';
import { useChangeUserRole, useUserAction, type AdminUser, type UserAction } from '../api/admin-users-api.ts';

export type UserActionKind = UserAction | 'changeRole';

export interface PendingAction {
  kind: UserActionKind;
  user: AdminUser;
}

/**
 * Asks before every action on an account, naming its consequence ("Deactivate Dr X? They will be signed out
 * everywhere at once ..."). The safe choice has the focus; the outcome is a notification.
 */
export function UserActionModal({ pending, onClose }: { pending: PendingAction | null; onClose: () => void }) {
  const { t } = useTranslation(['admin-users', 'shared']);
  const specialtyLabel = useSpecialtyLabel();
  const action = useUserAction();
  const changeRole = useChangeUserRole();
  // The closing animation keeps showing the last action rather than an empty dialog.
  const [last, setLast] = useState(pending);
  const [specialty, setSpecialty] = useState<string | null>(null);
  const [specialtyError, setSpecialtyError] = useState<string | null>(null);
  if (pending !== null && pending !== last) {
    setLast(pending);
    setSpecialty(null);
    setSpecialtyError(null);
    action.reset();
    changeRole.reset();
  }
  const shown = pending ?? last;
  const busy = action.isPending || changeRole.isPending;
  const error = action.error ?? changeRole.error;

  if (!shown) return null;
  const { kind, user } = shown;
  const name = `${user.firstName} ${user.lastName}`.trim();
  const newRole = user.role === 'admin' ? 'provider' : 'admin';

  const done = (message: string) => {
    notifications.show({ color: 'teal', icon: <IconCheck size={18} />, message });
    onClose();
  };

  const confirm = () => {
    if (kind === 'changeRole') {
      if (newRole === 'provider' && !specialty) {
        setSpecialtyError(t('shared:userMessages.specialtyRequired'));
        return;
      }
      changeRole.mutate(
        { accountId: user.id, role: newRole, specialty: newRole === 'provider' ? specialty : null },
        { onSuccess: () => done(t('done.changeRole', { name, role: t(`roles.${newRole}`) })) },
      );
      return;
    }
    action.mutate({ action: kind, accountId: user.id }, { onSuccess: () => done(t(`done.${kind}`, { name })) });
  };

  return (
    <Modal
      opened={pending !== null}
      onClose={() => {
        if (!busy) onClose();
      }}
      title={t(`confirm.${kind}.title`, { name })}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      centered
      trapFocus
      closeButtonProps={{ 'aria-label': t('confirm.close') }}
    >
      <Stack gap="md">
        <Text>{t(`confirm.${kind}.body`, { name, email: user.email })}</Text>
        {kind === 'changeRole' ? (
          <>
            <Text size="sm">
              {t('confirm.changeRole.newRole')}: <strong>{t(`roles.${newRole}`)}</strong>
            </Text>
            <Text size="sm" c="dimmed">
              {newRole === 'provider' ? t('confirm.changeRole.toProvider') : t('confirm.changeRole.toAdmin')}
            </Text>
            {newRole === 'provider' ? (
              <Select
                label={t('confirm.changeRole.specialty')}
                data={SPECIALTIES.map((value) => ({ value, label: specialtyLabel(value) }))}
                value={specialty}
                onChange={(value) => {
                  setSpecialty(value);
                  setSpecialtyError(null);
                }}
                error={specialtyError}
                required
                comboboxProps={{ withinPortal: true }}
              />
            ) : null}
          </>
        ) : null}
        {error ? (
          <Alert color="red" variant="light" role="alert">
            {t('failed', { message: describeError(error) })}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy} data-autofocus>
            {t('confirm.cancel')}
          </Button>
          <Button color={kind === 'deactivate' ? 'red.9' : undefined} onClick={confirm} loading={busy}>
            {t(`confirm.${kind}.confirm`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
