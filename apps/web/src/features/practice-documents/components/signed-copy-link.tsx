import { Anchor } from '@mantine/core';
import { signedCopyPath } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

/** Downloads a signed copy (PDF, built by the server in the reader's language); the URL holds only the id. */
export function SignedCopyLink({ signatureId, label }: { signatureId: string; label?: string }) {
  const { t, i18n } = useTranslation('practice-documents');
  const language = i18n.language.startsWith('es') ? 'es' : 'en';
  return (
    <Anchor href={`${signedCopyPath(signatureId)}?language=${language}`} download size="sm">
      {label ?? t('downloadCopy')}
    </Anchor>
  );
}
