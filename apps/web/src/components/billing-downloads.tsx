import { Alert, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { BillingRangeSchema, superbillPath } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';

import { useSchemaForm } from '../hooks/use-schema-form.ts';
import { describeError } from '../lib/errors.ts';
import { downloadFile } from '../lib/download-file.ts';

/** Fetches a billing document (a superbill or a statement, decision 073) and saves it (lib/download-file.ts). */
export function downloadBillingDocument(url: string): Promise<string> {
  return downloadFile(url, { fallbackName: 'billing-document.pdf' });
}

/** A button that downloads one billing document, with its refusal said under it. */
export function BillingDownloadButton({
  url,
  label,
  accessibleLabel,
  variant = 'default',
}: {
  url: string;
  label: string;
  accessibleLabel?: string;
  variant?: 'default' | 'filled' | 'light';
}) {
  const download = useMutation({ mutationFn: downloadBillingDocument });
  return (
    <Stack gap={4} align="flex-start">
      <Button
        variant={variant}
        size="sm"
        loading={download.isPending}
        aria-label={accessibleLabel ?? label}
        onClick={() => download.mutate(url)}
      >
        {label}
      </Button>
      {download.isError ? (
        <Alert color="red" variant="light" role="alert" p="xs">
          {describeError(download.error)}
        </Alert>
      ) : null}
    </Stack>
  );
}

/** The superbill of a date range: two dates checked by the shared BillingRangeSchema, then the download. */
export function SuperbillRangeForm({ patientId }: { patientId: string }) {
  const { t } = useTranslation('billing-documents');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const download = useMutation({
    mutationFn: (range: z.output<typeof BillingRangeSchema>) =>
      downloadBillingDocument(superbillPath({ patientId, ...range })),
  });
  const form = useSchemaForm({
    schema: BillingRangeSchema,
    read: () => ({ from, to }),
    mutation: download,
    onDone: () => undefined,
  });
  return (
    <form onSubmit={form.submit} noValidate>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('downloads.rangeTitle')}
        </Title>
        <Group gap="sm" align="flex-start" wrap="wrap">
          <TextInput
            type="date"
            label={t('downloads.from')}
            value={from}
            onChange={(event) => setFrom(event.currentTarget.value)}
            error={form.fieldError('from')}
            w={170}
          />
          <TextInput
            type="date"
            label={t('downloads.to')}
            value={to}
            onChange={(event) => setTo(event.currentTarget.value)}
            error={form.fieldError('to')}
            w={170}
          />
        </Group>
        <Group>
          <Button type="submit" variant="default" size="sm" loading={download.isPending}>
            {t('downloads.rangeButton')}
          </Button>
        </Group>
        {form.failure ? (
          <Alert color="red" variant="light" role="alert" p="xs">
            {describeError(form.failure)}
          </Alert>
        ) : null}
      </Stack>
    </form>
  );
}
