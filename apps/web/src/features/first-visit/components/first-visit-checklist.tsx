import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { useMyFirstVisitChecklist, type FirstVisitItem } from '../api/first-visit-api.ts';

/** Where the patient goes for an item, what it is called and what to do, in the reader's language. */
function useItemWords() {
  const { t, i18n } = useTranslation(['first-visit', 'measures']);
  return (item: FirstVisitItem): { name: string; description: string; to: string; action: string; label: string } => {
    switch (item.kind) {
      case 'document': {
        const name = (i18n.language === 'es' ? item.titleEs : null) ?? item.titleEn ?? '';
        return {
          name,
          description:
            item.status === 'newer-version' ? t('checklist.document.newerVersion') : t('checklist.document.toSign'),
          to: '/my/documents',
          action: t('checklist.document.action'),
          label: t('checklist.document.actionNamed', { name }),
        };
      }
      case 'intake': {
        const started = item.status === 'in-progress';
        const action = started ? t('checklist.intake.continue') : t('checklist.intake.start');
        return {
          name: t('checklist.intake.title'),
          description: started ? t('checklist.intake.inProgress') : t('checklist.intake.notStarted'),
          to: '/my/intake',
          action,
          label: action,
        };
      }
      case 'questionnaire': {
        const name = item.instrument ? t(`measures:instrument.${item.instrument}`) : '';
        return {
          name,
          description: t('checklist.questionnaire.description'),
          to: `/questionnaires/${item.id}`,
          action: t('checklist.questionnaire.action'),
          label: t('checklist.questionnaire.actionNamed', { name }),
        };
      }
    }
  };
}

/**
 * The patient's dashboard: "Before your first visit", while something is left to do (documents to sign, the
 * intake, questionnaires); gone when nothing is (decision 068). The portal's way in to `/my/intake`.
 */
export function FirstVisitChecklist() {
  const { t } = useTranslation('first-visit');
  const checklist = useMyFirstVisitChecklist();
  const wordsOf = useItemWords();
  if (checklist.isError) {
    return (
      <Alert color="red" variant="light">
        {t('checklist.loadFailed')}
      </Alert>
    );
  }
  if (!checklist.data || checklist.data.length === 0) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="first-visit-checklist">
      <Stack gap="sm">
        <Title order={2} size="h3" id="first-visit-checklist">
          {t('checklist.title')}
        </Title>
        <Text size="sm">{t('checklist.intro')}</Text>
        <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {checklist.data.map((item) => {
            const words = wordsOf(item);
            return (
              <Group
                component="li"
                key={`${item.kind}:${item.id}`}
                justify="space-between"
                wrap="wrap"
                gap="xs"
                data-testid="first-visit-item"
              >
                <div style={{ minWidth: 0, flex: '1 1 14rem' }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {words.name}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {words.description}
                  </Text>
                </div>
                <Button component={Link} to={words.to} aria-label={words.label}>
                  {words.action}
                </Button>
              </Group>
            );
          })}
        </Stack>
      </Stack>
    </Paper>
  );
}
