import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { INVITATION_VALID_HOURS } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { IconCheck, IconMail } from '../../../components/icons.tsx';
import { describeError } from '../../../lib/errors.ts';
import { invitationLinkState } from '../../../lib/invitation-state.ts';
import { useResendInvitation, type AccessRequest } from '../api/access-requests-api.ts';

/** Dark amber: 7:1 on the alert's pale yellow (Mantine's yellow title colour is below 3:1 there). */
const PENDING_TEXT = '#7a4b00';

/**
 * For an approved request whose account has no password yet: where its invitation stands, and "Resend
 * invitation" (a new single-use link; the server refuses anyone but an administrator and audits the resend).
 */
export function InvitationPanel({ request }: { request: AccessRequest }) {
  const { t, i18n } = useTranslation('access-review');
  const resend = useResendInvitation();
  if (request.status !== 'approved' || !request.account || !request.invitationPending) return null;

  const name = `${request.firstName} ${request.lastName}`;
  const link = invitationLinkState(request.invitationExpiresAt, i18n.language);
  const onResend = () => {
    if (resend.isPending) return;
    resend.mutate(request, {
      onSuccess: () => {
        notifications.show({
          color: 'teal',
          icon: <IconCheck size={18} />,
          title: t('invitation.sentTitle'),
          message: t('invitation.sent', { email: request.email }),
          closeButtonProps: { 'aria-label': t('closeNotification') },
        });
      },
    });
  };

  return (
    // A status, not an alarm: its text changes (politely announced) when a new link is sent.
    <Alert
      color="yellow"
      variant="light"
      role="status"
      icon={<IconMail size={18} />}
      title={t('invitation.title')}
      styles={{ title: { color: PENDING_TEXT }, icon: { color: PENDING_TEXT } }}
    >
      <Stack gap="sm">
        <Text size="sm">
          {link.state === 'open'
            ? t('invitation.pendingOpen', { name, date: link.date })
            : link.state === 'expired'
              ? t('invitation.pendingExpired', { name, date: link.date })
              : t('invitation.pendingNone', { name })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('invitation.resendHelp', { hours: INVITATION_VALID_HOURS })}
        </Text>
        {resend.isError ? (
          <Alert color="red" variant="light" role="alert" title={t('invitation.failed')}>
            {describeError(resend.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onResend} loading={resend.isPending}>
            {t('invitation.resend')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
