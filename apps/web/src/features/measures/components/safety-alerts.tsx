import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { describeError } from '../../../lib/errors.ts';
import { useAcknowledgeAlert, useSafetyAlerts, type SafetyAlert } from '../api/measures-api.ts';
import { formatInstantDateTime } from '../../../lib/practice-dates.ts';

/**
 * Safety alerts for the provider: on the dashboard, the open ones of all their patients (nothing when there are
 * none); in a patient's chart (`patientId`), that patient's, acknowledged ones too. Each stays until a provider
 * acknowledges it with what they did.
 */
export function SafetyAlerts({ patientId = null }: { patientId?: string | null }) {
  const { t, i18n } = useTranslation('measures');
  const alerts = useSafetyAlerts(patientId);
  const [acknowledging, setAcknowledging] = useState<SafetyAlert | null>(null);
  if (alerts.isError) {
    return (
      <Alert color="red" variant="light">
        {t('alerts.loadFailed')}
      </Alert>
    );
  }
  const list = alerts.data ?? [];
  const open = list.filter((a) => !a.acknowledgedAt);
  if (patientId === null && open.length === 0) return null;
  if (patientId !== null && list.length === 0) return null;
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      component="section"
      aria-labelledby={`safety-alerts-${patientId ?? 'all'}`}
      style={open.length > 0 ? { borderColor: 'var(--mantine-color-red-9)', borderWidth: 2 } : {}}
    >
      <Stack gap="sm">
        <Group gap="xs">
          <Title
            order={2}
            size="h3"
            id={`safety-alerts-${patientId ?? 'all'}`}
            c={open.length > 0 ? 'red.9' : undefined}
          >
            {t('alerts.title')}
          </Title>
          {open.length > 0 ? (
            <Badge color="red.9" variant="filled">
              {open.length}
            </Badge>
          ) : null}
        </Group>
        {open.length > 0 ? <Text size="sm">{t('alerts.intro')}</Text> : <Text size="sm">{t('alerts.none')}</Text>}
        {list.map((alert) => (
          <Paper key={alert.id} withBorder p="sm" radius="md" data-testid="safety-alert">
            <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
              <Stack gap={2}>
                <Text fw={700}>{alert.patientName}</Text>
                <Text size="sm">
                  {t('alerts.raised', { date: formatInstantDateTime(alert.createdAt, i18n.language) })}
                  {alert.total !== null ? ` · ${t('alerts.phq9Total', { total: alert.total })}` : ''}
                </Text>
                {alert.escalatedAt && !alert.acknowledgedAt ? (
                  <Text size="sm" c="orange.9">
                    {t('alerts.escalated', { date: formatInstantDateTime(alert.escalatedAt, i18n.language) })}
                  </Text>
                ) : null}
                {alert.acknowledgedAt ? (
                  <Text size="sm" c="teal.9">
                    {t('alerts.acknowledged', {
                      name: alert.acknowledgedByName ?? '',
                      date: formatInstantDateTime(alert.acknowledgedAt, i18n.language),
                    })}
                  </Text>
                ) : null}
                {alert.acknowledgement ? (
                  // What the provider did, as they wrote it: the record of the safety path's answer.
                  <Stack gap={0} data-testid="alert-acknowledgement">
                    <Text size="sm" fw={600}>
                      {t('alerts.ackNote')}
                    </Text>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                      {alert.acknowledgement}
                    </Text>
                  </Stack>
                ) : null}
              </Stack>
              <Group gap="xs">
                {patientId === null ? (
                  <Button
                    component={Link}
                    to={`/patients/${alert.patientId}`}
                    variant="default"
                    size="xs"
                    aria-label={t('alerts.openChartNamed', { name: alert.patientName })}
                  >
                    {t('alerts.openChart')}
                  </Button>
                ) : null}
                {alert.acknowledgedAt ? null : (
                  <Button
                    color="red.9"
                    size="xs"
                    onClick={() => setAcknowledging(alert)}
                    aria-label={t('alerts.acknowledgeNamed', { name: alert.patientName })}
                  >
                    {t('alerts.acknowledge')}
                  </Button>
                )}
              </Group>
            </Group>
          </Paper>
        ))}
      </Stack>
      {acknowledging ? <AcknowledgeModal alert={acknowledging} onClose={() => setAcknowledging(null)} /> : null}
    </Paper>
  );
}

function AcknowledgeModal({ alert, onClose }: { alert: SafetyAlert; onClose: () => void }) {
  const { t } = useTranslation('measures');
  const acknowledge = useAcknowledgeAlert();
  const [note, setNote] = useState('');
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('alerts.ackTitle')}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      closeButtonProps={{ 'aria-label': t('alerts.cancel') }}
    >
      <form
        noValidate
        onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
          event.preventDefault();
          acknowledge.mutate({ id: alert.id, note }, { onSuccess: onClose });
        }}
      >
        <Stack gap="sm">
          <Text fw={600}>{alert.patientName}</Text>
          {acknowledge.error ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(acknowledge.error)}
            </Alert>
          ) : null}
          <Textarea
            label={t('alerts.ackNote')}
            placeholder={t('alerts.ackPlaceholder')}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            required
            autosize
            minRows={3}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={acknowledge.isPending}>
              {t('alerts.cancel')}
            </Button>
            <Button type="submit" color="red.9" loading={acknowledge.isPending}>
              {t('alerts.ackSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
