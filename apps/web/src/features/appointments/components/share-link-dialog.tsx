import { Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { videoCallLink } from '../utils/appointment-display.ts';

/** How long "Copied!" shows (the specification's 2 s). */
const COPIED_MS = 2000;

/**
 * The specification's Share Video Call Link dialog: the link, Copy ('Copied!' for 2 s, with a fallback for
 * browsers without the clipboard API), and e-mail and text-message buttons with a message that carries no health
 * information (no name, no reason: only the link).
 */
export function ShareLinkDialog({ appointmentId, onClose }: { appointmentId: string | null; onClose: () => void }) {
  const { t } = useTranslation('appointments');
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const link = appointmentId ? videoCallLink(window.location.origin, appointmentId) : '';
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // The older way: select the text and copy it.
      input.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
  };
  const message = t('share.message', { url: link });
  return (
    <Modal
      opened={appointmentId !== null}
      onClose={onClose}
      title={t('share.title')}
      centered
      closeButtonProps={{ 'aria-label': t('details.close') }}
    >
      <Stack gap="sm">
        <Text size="sm">{t('share.intro')}</Text>
        <TextInput
          label={t('share.link')}
          value={link}
          readOnly
          ref={input}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Group gap="xs" wrap="wrap">
          <Button onClick={() => void copy()} aria-live="polite">
            {copied ? t('share.copied') : t('share.copy')}
          </Button>
          <Anchor
            href={`mailto:?subject=${encodeURIComponent(t('share.subject'))}&body=${encodeURIComponent(message)}`}
            size="sm"
          >
            {t('share.email')}
          </Anchor>
          <Anchor href={`sms:?&body=${encodeURIComponent(message)}`} size="sm">
            {t('share.sms')}
          </Anchor>
        </Group>
      </Stack>
    </Modal>
  );
}
