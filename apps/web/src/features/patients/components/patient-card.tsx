import { Avatar, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { IconPencil, IconTrash } from '../../../components/icons.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import type { PatientSummary } from '../api/patient-schemas.ts';
import { ageOf, formatCalendarDate, formatTimestampDate, patientFullName, patientInitials } from '../utils/format.ts';
import classes from './patient-card.module.css';

export interface PatientCardProps {
  patient: PatientSummary;
  canEdit: boolean;
  canDelete: boolean;
  /** The primary provider's name for administrators (null: unassigned); undefined hides the line. */
  providerName?: string | null | undefined;
  onOpen: (patient: PatientSummary) => void;
  onDelete: (patient: PatientSummary) => void;
}

/** One patient in the list: the name (and the whole card) opens the chart; details, edit and delete as the caller may. */
export function PatientCard({ patient, canEdit, canDelete, providerName, onOpen, onDelete }: PatientCardProps) {
  const { t, i18n } = useTranslation('patients');
  const locale = i18n.resolvedLanguage ?? 'en';
  const name = patientFullName(patient);
  const age = ageOf(patient.dateOfBirth);

  return (
    <Card component="article" className={classes.card} shadow="xs" aria-label={name}>
      <Stack gap="md" h="100%">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <Avatar color={patient.isActive ? 'clinical' : 'gray'} radius="xl" aria-hidden>
            {patientInitials(patient)}
          </Avatar>
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            {/* A heading per card, so that screen readers can move from patient to patient; the name is a link to
                the chart (a plain link: a hundred cards render at once). */}
            <Text component="h2" m={0} lh={1.3}>
              <Link className={classes.open} to={`/patients/${patient.id}`}>
                {name}
              </Link>
            </Text>
            <Text size="xs" c="dimmed">
              {t('card.added', { date: formatTimestampDate(patient.createdAt, locale) })}
            </Text>
          </Stack>
          <StatusBadge active={patient.isActive} label={patient.isActive ? t('card.active') : t('card.inactive')} />
        </Group>

        <Stack component="dl" gap={6} className={classes.facts}>
          <div className={classes.fact}>
            <dt>{t('card.email')}</dt>
            <dd>{patient.email}</dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('card.phone')}</dt>
            <dd>
              {patient.phone ?? (
                <Text span size="sm" c="dimmed">
                  {t('card.noPhone')}
                </Text>
              )}
            </dd>
          </div>
          <div className={classes.fact}>
            <dt>{t('card.dateOfBirth')}</dt>
            <dd>
              {formatCalendarDate(patient.dateOfBirth, locale)}
              {age !== null ? (
                <Text span size="sm" c="dimmed">
                  {' '}
                  ({t('card.age', { count: age })})
                </Text>
              ) : null}
            </dd>
          </div>
        </Stack>

        {providerName !== undefined ? (
          <Text size="sm" c={providerName ? 'dark.6' : 'dimmed'}>
            {providerName ? t('card.provider', { name: providerName }) : t('card.unassigned')}
          </Text>
        ) : null}

        <Group gap="xs" justify="flex-end" mt="auto" className={classes.actions}>
          {/* The details (contact and clinical text) at a glance, without leaving the list. */}
          <Button
            variant="subtle"
            size="xs"
            mr="auto"
            aria-haspopup="dialog"
            aria-label={t('card.details', { name })}
            onClick={() => {
              onOpen(patient);
            }}
          >
            {t('card.detailsLabel')}
          </Button>
          {canEdit ? (
            <Button
              component={Link}
              to={`/patients/${patient.id}/edit`}
              variant="light"
              size="xs"
              leftSection={<IconPencil size={16} />}
              aria-label={t('card.edit', { name })}
            >
              {t('card.editLabel')}
            </Button>
          ) : null}
          {canDelete ? (
            <Button
              variant="subtle"
              color="red"
              c="red.9"
              size="xs"
              leftSection={<IconTrash size={16} />}
              aria-label={t('card.delete', { name })}
              onClick={() => {
                onDelete(patient);
              }}
            >
              {t('card.deleteLabel')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}
