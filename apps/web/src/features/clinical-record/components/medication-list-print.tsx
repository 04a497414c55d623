import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfigValue } from '../../../lib/page-bootstrap.ts';
import { formatCalendarDate } from '../../../lib/practice-dates.ts';
import { usePatientAllergies } from '../api/allergies-api.ts';
import { usePatientMedications } from '../api/medications-api.ts';
import { labelLanguage } from '../utils/label-language.ts';
import { sigOf } from '../utils/sig.ts';
import classes from './medication-list-print.module.css';

/**
 * The patient's medication list to print (issue 27, points 2 and 8): the practice, the patient, the date, each
 * medication taken with how to take it, who prescribed it and since when, and the allergies; the print dialog is a
 * button away (the app's header and navigation stay off the paper). Read with `forPrint`, so the server records
 * the printing (PHI_PRINT) rather than a read.
 */
export function MedicationListPrint({
  patient,
  backTo,
}: {
  patient: { id: string; firstName: string; lastName: string; dateOfBirth: string };
  backTo: string;
}) {
  const { t, i18n } = useTranslation('clinical-record');
  const language = labelLanguage(i18n.language);
  usePageTitle(t('print.title'));
  const practice = useAppConfigValue()?.practiceName ?? null;
  const medications = usePatientMedications(patient.id, { forPrint: true });
  const allergies = usePatientAllergies(patient.id);
  const taking = medications.data?.medications.filter((m) => m.status !== 'stopped') ?? [];
  const today = new Date().toISOString().slice(0, 10);
  return (
    <Stack gap="md" maw={900} className={classes.page}>
      <Group justify="space-between" className={classes.noPrint} wrap="wrap">
        <Anchor component={Link} to={backTo}>
          {t('print.back')}
        </Anchor>
        <Button variant="default" onClick={() => window.print()} disabled={!medications.data}>
          {t('print.print')}
        </Button>
      </Group>
      {practice ? <Text fw={600}>{practice}</Text> : null}
      <Title order={1}>{t('print.title')}</Title>
      <Text>
        {t('print.patient', {
          name: `${patient.firstName} ${patient.lastName}`,
          born: formatCalendarDate(patient.dateOfBirth, i18n.language),
        })}
        <br />
        {t('print.asOf', { date: formatCalendarDate(today, i18n.language) })}
      </Text>
      {medications.isPending ? (
        <LoadingLine label={t('medications.loading')} />
      ) : medications.isError ? (
        <Alert color="red" variant="light" role="alert">
          {t('medications.loadFailed')}
        </Alert>
      ) : taking.length === 0 ? (
        <Text>{t('mine.noMedications')}</Text>
      ) : (
        <table className={classes.table} data-testid="medication-list">
          <caption style={{ textAlign: 'left', fontWeight: 600, paddingBottom: 6 }}>{t('print.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('print.medication')}</th>
              <th scope="col">{t('print.howToTake')}</th>
              <th scope="col">{t('print.prescriber')}</th>
              <th scope="col">{t('print.since')}</th>
            </tr>
          </thead>
          <tbody>
            {taking.map((m) => (
              <tr key={m.id}>
                <td>
                  <strong>{[m.drugName, m.strength].filter(Boolean).join(' ')}</strong>
                  {m.brandName ? ` (${m.brandName})` : ''}
                  {m.status === 'held' ? ` · ${t('medications.status.held')}` : ''}
                </td>
                <td>{sigOf(m, language) || (m.reportedDose ?? '')}</td>
                <td>{m.prescriber ?? ''}</td>
                <td>{formatCalendarDate(m.startDate, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Title order={2} size="h4">
        {t('mine.allergies')}
      </Title>
      {allergies.data ? (
        <Text>
          {allergies.data
            .filter((a) => a.status === 'active')
            .map((a) => `${a.substance}${a.reaction ? ` (${a.reaction})` : ''}`)
            .join('; ') || t('mine.noAllergies')}
        </Text>
      ) : null}
      <Text size="sm">{t('print.advice')}</Text>
    </Stack>
  );
}
