import { Alert } from '@mantine/core';
import type { PracticeDocumentKind } from '@telehealth/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { useMyPracticeDocuments } from '../api/practice-documents-api.ts';
import { DocumentReader, needsSignature } from './my-documents-screen.tsx';

/**
 * The practice's document of one kind for the signed-in patient to read and sign where they are (the video waiting
 * room's telehealth consent, decision 069): the same reader and signing form as `/my/documents`. `onSigned` is
 * called once it is signed, or at once when it has nothing left to sign (signed meanwhile in another window).
 */
export function PracticeDocumentToSign({
  kind,
  onSigned,
}: {
  kind: Exclude<PracticeDocumentKind, 'custom'>;
  onSigned: () => void;
}) {
  const { t } = useTranslation('practice-documents');
  const documents = useMyPracticeDocuments();
  // The document being signed stays open after signing (the list read again no longer asks for it).
  const [openId, setOpenId] = useState<string | null>(null);
  const toSign = documents.data?.find((item) => item.document.kind === kind && needsSignature(item));
  // Told once: the signature here, or nothing to sign when first read.
  const told = useRef(false);
  const signed = () => {
    if (told.current) return;
    told.current = true;
    onSigned();
  };
  const nothingToSign = documents.isSuccess && !toSign && openId === null;
  // Kept from the first read (state adjusted while rendering, React's pattern for state derived from props).
  if (toSign && openId === null) setOpenId(toSign.document.id);
  useEffect(() => {
    if (nothingToSign && !told.current) {
      told.current = true;
      onSigned();
    }
  }, [nothingToSign, onSigned]);
  if (documents.isPending) return <LoadingLine label={t('loading')} />;
  if (documents.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        {describeError(documents.error)}
      </Alert>
    );
  }
  const documentId = openId ?? toSign?.document.id;
  if (!documentId) return null;
  return <DocumentReader documentId={documentId} titleOrder={2} onSigned={signed} />;
}
