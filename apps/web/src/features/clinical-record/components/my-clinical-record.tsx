import { Alert, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { CURRENT_DIAGNOSIS_STATUSES } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ToneBadge } from '../../../components/tone-badge.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { formatCalendarDate } from '../../../lib/practice-dates.ts';
import { usePatientAllergies } from '../api/allergies-api.ts';
import { usePatientDiagnoses } from '../api/diagnoses-api.ts';
import { usePatientMedications } from '../api/medications-api.ts';
import { labelLanguage } from '../utils/label-language.ts';
import { sigOf } from '../utils/sig.ts';

/**
 * The patient's own psychiatric record in the portal (issue 27, point 8): the medications they take (how to take
 * each, who prescribed it, since when) with a link to the printable list, their current diagnoses and their
 * allergies. Read only; the server audits each read.
 */
export function MyClinicalRecord({ patientId, printPath }: { patientId: string; printPath: string }) {
  const { t, i18n } = useTranslation('clinical-record');
  const language = labelLanguage(i18n.language);
  const medications = usePatientMedications(patientId);
  const diagnoses = usePatientDiagnoses(patientId);
  const allergies = usePatientAllergies(patientId);
  const taking = medications.data?.medications.filter((m) => m.status !== 'stopped') ?? [];
  const current = diagnoses.data?.filter((d) => CURRENT_DIAGNOSIS_STATUSES.includes(d.status)) ?? [];
  const activeAllergies = allergies.data?.filter((a) => a.status === 'active') ?? [];
  return (
    <>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-medications-title">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h3" id="my-medications-title">
              {t('mine.medications')}
            </Title>
            {taking.length > 0 ? (
              <Anchor component={Link} to={printPath}>
                {t('mine.print')}
              </Anchor>
            ) : null}
          </Group>
          {medications.isPending ? (
            <LoadingLine label={t('medications.loading')} />
          ) : medications.isError ? (
            <Alert color="red" variant="light">
              {t('medications.loadFailed')}
            </Alert>
          ) : taking.length === 0 ? (
            <Text c="dimmed">{t('mine.noMedications')}</Text>
          ) : (
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {taking.map((m) => (
                <Paper component="li" withBorder p="sm" radius="sm" key={m.id} data-testid="my-medication">
                  <Text fw={700}>
                    {[m.drugName, m.strength].filter(Boolean).join(' ')}
                    {m.brandName ? ` (${m.brandName})` : ''}
                  </Text>
                  <Text>{sigOf(m, language) || (m.reportedDose ?? '')}</Text>
                  {m.status === 'held' ? <ToneBadge tone="yellow">{t('medications.status.held')}</ToneBadge> : null}
                  <Text size="sm" c="dimmed">
                    {[
                      t('medications.since', { date: formatCalendarDate(m.startDate, i18n.language) }),
                      m.prescriber ? t('medications.prescriber', { name: m.prescriber }) : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </Paper>
              ))}
            </Stack>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-diagnoses-title">
        <Stack gap="sm">
          <Title order={2} size="h3" id="my-diagnoses-title">
            {t('mine.diagnoses')}
          </Title>
          {diagnoses.isPending ? (
            <LoadingLine label={t('diagnoses.loading')} />
          ) : current.length === 0 ? (
            <Text c="dimmed">{t('mine.noDiagnoses')}</Text>
          ) : (
            <Stack gap={4} component="ul" style={{ paddingLeft: 18, margin: 0 }}>
              {current.map((d) => (
                <Text component="li" key={d.id} data-testid="my-diagnosis">
                  {d.title} ({d.code}) · {t(`diagnoses.status.${d.status}`)}
                </Text>
              ))}
            </Stack>
          )}
          <Title order={3} size="h4">
            {t('mine.allergies')}
          </Title>
          {allergies.isPending ? (
            <LoadingLine label={t('allergies.loading')} />
          ) : activeAllergies.length === 0 ? (
            <Text c="dimmed">{t('mine.noAllergies')}</Text>
          ) : (
            <Stack gap={4} component="ul" style={{ paddingLeft: 18, margin: 0 }}>
              {activeAllergies.map((a) => (
                <Text component="li" key={a.id}>
                  {a.substance}
                  {a.reaction ? `: ${a.reaction}` : ''} · {t(`allergies.severity.${a.severity}`)}
                </Text>
              ))}
            </Stack>
          )}
        </Stack>
      </Paper>
    </>
  );
}
