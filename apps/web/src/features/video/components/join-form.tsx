import { Button, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { MEDIA_CONSTRAINTS, mediaErrorReason } from '../lib/media.ts';

/** The specification's join screen: the name the others will see (required), and the button. */
export function JoinForm({
  name,
  onNameChange,
  nameError,
  submitLabel,
  onSubmit,
}: {
  name: string;
  onNameChange: (name: string) => void;
  nameError: string | null;
  submitLabel: string;
  onSubmit: () => void;
}) {
  const { t } = useTranslation('video');
  return (
    <Paper withBorder p="md" radius="md">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('join.heading')}
          </Title>
          <TextInput
            label={t('join.name')}
            description={t('join.nameHint')}
            value={name}
            onChange={(e) => onNameChange(e.currentTarget.value)}
            error={nameError}
            required
            maxLength={80}
            autoComplete="name"
          />
          <Button type="submit" style={{ alignSelf: 'flex-start' }}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * The camera and microphone before a call: asked for on the device check or on joining, another device chosen
 * (the old tracks stop), and the specification's 'Cannot access camera/microphone: {reason}' when refused.
 */
export function useLocalMedia() {
  const { t } = useTranslation('video');
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The camera and microphone go off when the page goes (a call's own disposal stops them as well).
  const current = useRef<MediaStream | null>(null);
  useEffect(() => {
    current.current = stream;
  }, [stream]);
  useEffect(() => () => current.current?.getTracks().forEach((track) => track.stop()), []);

  const request = useCallback(
    async (
      constraints: MediaStreamConstraints = MEDIA_CONSTRAINTS,
    ): Promise<{ stream: MediaStream } | { error: string }> => {
      try {
        const media = await navigator.mediaDevices.getUserMedia(constraints);
        setStream((previous) => {
          if (previous && previous !== media) previous.getTracks().forEach((track) => track.stop());
          return media;
        });
        setError(null);
        return { stream: media };
      } catch (e) {
        const message = t('error.media', { reason: mediaErrorReason(e) });
        setError(message);
        return { error: message };
      }
    },
    [t],
  );

  const select = useCallback(
    (kind: 'audioinput' | 'videoinput', deviceId: string) =>
      request(
        kind === 'audioinput'
          ? { audio: { deviceId: { exact: deviceId } }, video: MEDIA_CONSTRAINTS.video ?? true }
          : { audio: true, video: { deviceId: { exact: deviceId } } },
      ),
    [request],
  );

  return { stream, error, request, select, forget: () => setStream(null) };
}
