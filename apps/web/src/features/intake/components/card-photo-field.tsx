import { Anchor, FileInput, Group, Text } from '@mantine/core';
import type { IntakeCardSide } from '@telehealth/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ToneBadge } from '../../../components/tone-badge.tsx';
import { translateServerError } from '../../../lib/errors.ts';
import {
  CardPhotoUploadError,
  cardPhotoUrl,
  intakeQueryKeys,
  uploadCardPhoto,
  type Intake,
} from '../api/intake-api.ts';

/** The photo of one side of the insurance card: chosen, uploaded at once (encrypted on the server), then marked. */
export function CardPhotoField({ side, photo }: { side: IntakeCardSide; photo: Intake['cardPhotos'][number] | null }) {
  const { t } = useTranslation('intake');
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onFile = (file: File | null) => {
    if (!file) return;
    setPending(true);
    setError(null);
    uploadCardPhoto(side, file)
      .then(() => queryClient.invalidateQueries({ queryKey: intakeQueryKeys.mine }))
      .catch((cause: unknown) => {
        const entry = cause instanceof CardPhotoUploadError ? cause.entry : null;
        setError(entry ? translateServerError(entry) : t('card.failed'));
      })
      .finally(() => setPending(false));
  };
  return (
    <div>
      <FileInput
        size="md"
        label={t(`card.${side}`)}
        description={pending ? t('card.uploading') : t('card.choose')}
        accept="image/png,image/jpeg,application/pdf"
        onChange={onFile}
        error={error}
        disabled={pending}
        clearable={false}
      />
      {photo ? (
        <Group gap="xs" mt={4}>
          <ToneBadge tone="green">{t('card.uploaded')}</ToneBadge>
          <Anchor href={cardPhotoUrl(photo.id)} size="sm">
            <Text span size="sm">
              {t('card.open', { side: t(`card.${side}`) })}
            </Text>
          </Anchor>
        </Group>
      ) : null}
    </div>
  );
}
