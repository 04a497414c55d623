import { Button, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { formatCents, superbillPath } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { BillingDownloadButton } from '../../../components/billing-downloads.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { coded, errorText } from '../../../lib/error-text.ts';
import { formatInstantDate } from '../../../lib/practice-dates.ts';
import { useVisitCoding, type VisitCoding } from '../api/billing-api.ts';
import { POINTER_LETTERS, VisitCodingForm } from './visit-coding-form.tsx';

/**
 * An appointment's coding in its details (decision 073): the current coding's summary, and "Code visit" (or
 * "Change coding") opening the form in place once the visit may be coded. Nothing is shown of a visit the caller
 * does not reach for billing.
 */
export function VisitCodingSection({ appointmentId, canWrite }: { appointmentId: string; canWrite: boolean }) {
  const { t } = useTranslation('billing-ledger');
  const coding = useVisitCoding(appointmentId);
  const [editing, setEditing] = useState(false);
  if (coding.isError) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="visit-coding-title">
      <Divider />
      <Group justify="space-between" wrap="wrap">
        <Title order={3} size="h4" id="visit-coding-title">
          {t('coding.title')}
        </Title>
        {coding.data && canWrite && coding.data.codable && !editing ? (
          <Button size="sm" onClick={() => setEditing(true)}>
            {coding.data.current ? t('coding.change') : t('coding.code')}
          </Button>
        ) : null}
      </Group>
      {coding.isPending ? (
        <LoadingLine label={t('coding.loading')} />
      ) : editing ? (
        <VisitCodingForm coding={coding.data} onDone={() => setEditing(false)} />
      ) : (
        <CodingSummary coding={coding.data} />
      )}
    </Stack>
  );
}

function CodingSummary({ coding }: { coding: VisitCoding }) {
  const { t, i18n } = useTranslation('billing-ledger');
  const current = coding.current;
  if (!current)
    return (
      <Text size="sm" c="dimmed">
        {coding.codable
          ? t('coding.notCoded')
          : errorText(coded(coding.notCodableReason ?? 'billingMessages.visitNotReady'))}
      </Text>
    );
  const total = current.services.reduce((sum, s) => sum + s.unitFeeCents * s.units, 0);
  return (
    <Stack gap={4} data-testid="coding-summary">
      <Text size="sm">
        {t('coding.placeOfService')}: {current.placeOfService} · {t(`coding.places.${current.placeOfService}`)}
      </Text>
      <Text size="sm">
        {t('coding.diagnoses')}: {current.diagnosisCodes.map((code, i) => `${POINTER_LETTERS[i]}. ${code}`).join(', ')}
      </Text>
      {current.services.map((service, i) => (
        <Text size="sm" key={i}>
          {service.code}
          {service.modifiers.length ? `-${service.modifiers.join('-')}` : ''} · {service.shortName} × {service.units} ·{' '}
          {formatCents(service.unitFeeCents * service.units, i18n.language)}
        </Text>
      ))}
      <Text size="sm" fw={700}>
        {t('coding.total', { amount: formatCents(total, i18n.language) })}
      </Text>
      <Text size="xs" c="dimmed">
        {t('coding.codedBy', {
          version: current.version,
          name: current.codedByName,
          date: formatInstantDate(current.codedAt, i18n.language),
        })}
      </Text>
      {/* The visit's superbill, for the patient to claim from their insurer (the server checks billing:read). */}
      <BillingDownloadButton
        url={superbillPath({ patientId: coding.patientId, appointmentId: coding.appointmentId })}
        label={t('coding.superbill')}
      />
    </Stack>
  );
}
