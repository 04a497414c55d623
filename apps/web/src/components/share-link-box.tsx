import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { videoCallPath } from '@telehealth/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** How long "Copied!" shows (the specification's 2 s). */
const COPIED_MS = 2000;

/**
 * The specification's share box of a video visit: the join link, Copy ('Copied!' for 2 s, with a fallback for
 * browsers without the clipboard API), and e-mail and text-message links with a message that carries no health
 * information (no name, no reason: only the link). In the calendar's dialog and on the call's start screen.
 */
export function ShareLinkBox({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation('appointments');
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const link = `${window.location.origin}${videoCallPath(appointmentId)}`;
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
    <Stack gap="sm">
      <Text size="sm">{t('share.intro')}</Text>
      <TextInput label={t('share.link')} value={link} readOnly ref={input} onFocus={(e) => e.currentTarget.select()} />
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
  );
}
