import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { useNow } from '../../../hooks/use-now.ts';
import { formatCountdown, secondsUntil } from '../utils/idle-deadline.ts';

export interface IdleWarningDialogProps {
  opened: boolean;
  deadline: number;
  onStaySignedIn: () => void;
  onSignOut: () => void;
  staying: boolean;
  signingOut: boolean;
  errorMessage: string | null;
}

/** "Are you still there?" with a live countdown to the automatic sign-out. */
export function IdleWarningDialog({
  opened,
  deadline,
  onStaySignedIn,
  onSignOut,
  staying,
  signingOut,
  errorMessage,
}: IdleWarningDialogProps) {
  const { t } = useTranslation('session');
  const now = useNow(opened);
  const remaining = formatCountdown(secondsUntil(now, deadline));

  return (
    // Composed by hand: Modal's own header is a <header> element, which axe counts as a second banner.
    <Modal.Root
      opened={opened}
      // Escape means the person is there: same as "Stay signed in".
      onClose={onStaySignedIn}
      centered
      closeOnClickOutside={false}
      size="md"
    >
      <Modal.Overlay backgroundOpacity={0.55} blur={2} />
      <Modal.Content>
        <Stack gap="md" p="lg">
          <Modal.Title fz="lg" fw={700}>
            {t('idle.title')}
          </Modal.Title>
          {/* The body is the dialog's description (aria-describedby). */}
          <Modal.Body p={0}>
            <Text>{t('idle.body')}</Text>
          </Modal.Body>
          {/* role=timer is not announced every second; the title and description are read when it opens. */}
          <Text role="timer" fz="xl" fw={700} ta="center" c="clinical.9" aria-atomic>
            {t('idle.countdown', { time: remaining })}
          </Text>
          {errorMessage ? (
            <Alert color="red" variant="light" role="alert">
              {errorMessage}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onSignOut} loading={signingOut} disabled={staying}>
              {t('idle.signOut')}
            </Button>
            <Button onClick={onStaySignedIn} loading={staying} disabled={signingOut} data-autofocus>
              {t('idle.staySignedIn')}
            </Button>
          </Group>
        </Stack>
      </Modal.Content>
    </Modal.Root>
  );
}
