import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { formatCalendarDate } from '../../../lib/practice-dates.ts';
import { useTreatmentPlansDue } from '../api/treatment-plans-api.ts';

/** The provider's dashboard: their patients' treatment plans whose review date has come, each linked to the chart. */
export function TreatmentPlansDue() {
  const { t, i18n } = useTranslation('clinical-record');
  const due = useTreatmentPlansDue();
  // Nothing due (or not known): nothing to show, like the other notices of the dashboard.
  if (!due.data || due.data.length === 0) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="plans-due-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="plans-due-title">
          {t('plans.dueTitle')}
        </Title>
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {due.data.map((plan) => (
            <Text component="li" key={plan.planId} size="sm">
              <Anchor component={Link} to={`/patients/${plan.patientId}`} fw={600}>
                {plan.patientName}
              </Anchor>{' '}
              · {t('plans.dueOn', { date: formatCalendarDate(plan.reviewDate, i18n.language) })}
            </Text>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
