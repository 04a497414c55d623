import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { usePageTitle } from '../hooks/use-page-title.ts';

export interface PlaceholderPageProps {
  title: string;
  body?: string;
  backTo?: { to: string; label: string };
}

/** A screen that a later release fills in: it names the screen so links never lead nowhere. */
export function PlaceholderPage({ title, body, backTo }: PlaceholderPageProps) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    <Stack gap="lg" maw={880}>
      <Group gap="sm" align="center">
        <Title order={1}>{title}</Title>
        <Badge variant="light" color="gray" size="lg">
          {t('placeholder.badge')}
        </Badge>
      </Group>
      <Paper withBorder p="xl">
        <Stack gap="sm">
          <Text>{body ?? t('placeholder.body')}</Text>
          {backTo ? (
            <Anchor component={Link} to={backTo.to} fw={600}>
              {backTo.label}
            </Anchor>
          ) : null}
        </Stack>
      </Paper>
    </Stack>
  );
}
