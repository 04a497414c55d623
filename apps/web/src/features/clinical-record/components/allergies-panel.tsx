import { Alert, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ToneBadge } from '../../../components/tone-badge.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { formatCalendarDate, formatInstantDate } from '../../../lib/practice-dates.ts';
import { usePatientAllergies, type Allergy } from '../api/allergies-api.ts';
import { AllergyFormModal, RemoveAllergyModal } from './allergy-form-modal.tsx';

/** How a severity badge looks; its word is always shown, so the colour never carries the meaning alone. */
const SEVERITY_BADGE = {
  severe: { tone: 'red', strong: true },
  moderate: { tone: 'orange', strong: false },
  mild: { tone: 'teal', strong: false },
  unknown: { tone: 'gray', strong: false },
} as const;

/**
 * A patient's structured allergies in the chart (decision 062), beside the record's free-text allergies: each
 * with its substance, severity, reaction, category and when it was noted; active ones first, removed ones (kept,
 * with who removed them and when) behind a toggle. The patient's provider adds and removes; others read only.
 */
export function AllergiesPanel({ patientId, canWrite }: { patientId: string; canWrite: boolean }) {
  const { t } = useTranslation('clinical-record');
  const allergies = usePatientAllergies(patientId);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Allergy | null>(null);
  const [showRemoved, setShowRemoved] = useState(false);
  const active = allergies.data?.filter((a) => a.status === 'active') ?? [];
  const removed = allergies.data?.filter((a) => a.status === 'removed') ?? [];
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="allergies-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" id="allergies-title">
            {t('allergies.title')}
          </Title>
          {canWrite ? (
            <Button size="sm" onClick={() => setAdding(true)}>
              {t('allergies.add')}
            </Button>
          ) : null}
        </Group>
        {allergies.isPending ? (
          <LoadingLine label={t('allergies.loading')} />
        ) : allergies.isError ? (
          <Alert color="red" variant="light">
            {t('allergies.loadFailed')}
          </Alert>
        ) : (
          <>
            {active.length === 0 ? (
              <Text c="dimmed">{t('allergies.empty')}</Text>
            ) : (
              <AllergyList allergies={active} onRemove={canWrite ? setRemoving : null} />
            )}
            {removed.length > 0 ? (
              <Switch
                label={t('allergies.showRemoved', { count: removed.length })}
                checked={showRemoved}
                onChange={(e) => setShowRemoved(e.currentTarget.checked)}
              />
            ) : null}
            {showRemoved && removed.length > 0 ? <AllergyList allergies={removed} onRemove={null} /> : null}
          </>
        )}
      </Stack>
      {adding ? <AllergyFormModal patientId={patientId} onClose={() => setAdding(false)} /> : null}
      {removing ? <RemoveAllergyModal allergy={removing} onClose={() => setRemoving(null)} /> : null}
    </Paper>
  );
}

function AllergyList({
  allergies,
  onRemove,
}: {
  allergies: readonly Allergy[];
  onRemove: ((allergy: Allergy) => void) | null;
}) {
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {allergies.map((allergy) => (
        <AllergyItem key={allergy.id} allergy={allergy} onRemove={onRemove ? () => onRemove(allergy) : null} />
      ))}
    </Stack>
  );
}

function AllergyItem({ allergy, onRemove }: { allergy: Allergy; onRemove: (() => void) | null }) {
  const { t, i18n } = useTranslation('clinical-record');
  const isRemoved = allergy.status === 'removed';
  const badge = SEVERITY_BADGE[allergy.severity];
  return (
    <Paper component="li" withBorder p="sm" radius="sm" data-testid="allergy" c={isRemoved ? 'dimmed' : undefined}>
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <Text fw={700} td={isRemoved ? 'line-through' : undefined}>
            {allergy.substance}
          </Text>
          <ToneBadge tone={badge.tone} strong={badge.strong}>
            {t(`allergies.severity.${allergy.severity}`)}
          </ToneBadge>
          {allergy.category ? <ToneBadge tone="gray">{t(`allergies.category.${allergy.category}`)}</ToneBadge> : null}
          {allergy.source === 'patient' ? (
            <ToneBadge tone="blue" data-testid="reported-by-patient">
              {t('reportedByPatient')}
            </ToneBadge>
          ) : null}
          {isRemoved ? (
            <ToneBadge tone="gray" strong>
              {t('allergies.removed')}
            </ToneBadge>
          ) : null}
        </Group>
        {allergy.reaction ? (
          <Text size="sm">
            {t('allergies.reaction')}: {allergy.reaction}
          </Text>
        ) : null}
        <Text size="sm" c="dimmed">
          {allergy.notedDate
            ? `${t('allergies.noted')}: ${formatCalendarDate(allergy.notedDate, i18n.language)} · `
            : ''}
          {t('allergies.addedBy', {
            name: allergy.createdByName,
            date: formatInstantDate(allergy.createdAt, i18n.language),
          })}
        </Text>
        {isRemoved && allergy.removedAt ? (
          <Text size="sm" c="dimmed">
            {t('allergies.removedBy', {
              name: allergy.removedByName ?? '',
              date: formatInstantDate(allergy.removedAt, i18n.language),
            })}
            {allergy.removalReason ? ` · ${allergy.removalReason}` : ''}
          </Text>
        ) : null}
        {onRemove ? (
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="light"
              color="red"
              onClick={onRemove}
              aria-label={t('allergies.removeOf', { substance: allergy.substance })}
            >
              {t('allergies.remove')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
