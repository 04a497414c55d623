import { Card, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { CrisisLines } from '../../../components/crisis-lines/index.ts';
import {
  IconCalendar,
  IconChart,
  IconFolder,
  IconMessage,
  IconNotes,
  IconSettings,
  IconShield,
  IconUserPlus,
  IconUsers,
} from '../../../components/icons.tsx';
import { LinkCard } from './link-card.tsx';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm">
      <Title order={2} size="h4" id={headingId}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

export function AdminPanel() {
  const { t } = useTranslation('dashboard');
  return (
    <Section title={t('admin.sectionTitle')}>
      <SimpleGrid cols={{ base: 1, sm: 2, xl: 4 }} spacing="md">
        <LinkCard
          to="/admin/access-requests"
          title={t('admin.accessRequests')}
          description={t('admin.accessRequestsDescription')}
          icon={<IconUserPlus size={24} />}
        />
        <LinkCard
          to="/admin/users"
          title={t('admin.users')}
          description={t('admin.usersDescription')}
          icon={<IconUsers size={24} />}
        />
        <LinkCard
          to="/admin/settings"
          title={t('admin.settings')}
          description={t('admin.settingsDescription')}
          icon={<IconSettings size={24} />}
        />
        <LinkCard
          to="/admin/reports"
          title={t('admin.reports')}
          description={t('admin.reportsDescription')}
          icon={<IconChart size={24} />}
        />
        <LinkCard
          to="/admin"
          title={t('admin.console')}
          description={t('admin.consoleDescription')}
          icon={<IconShield size={24} />}
        />
      </SimpleGrid>
    </Section>
  );
}

export function ProviderPanel() {
  const { t } = useTranslation('dashboard');
  return (
    <Section title={t('provider.sectionTitle')}>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <LinkCard
          to="/patients"
          title={t('provider.patients')}
          description={t('provider.patientsDescription')}
          icon={<IconUsers size={24} />}
        />
        <LinkCard
          to="/calendar"
          title={t('provider.calendar')}
          description={t('provider.calendarDescription')}
          icon={<IconCalendar size={24} />}
        />
        <LinkCard
          to="/notes"
          title={t('provider.notes')}
          description={t('provider.notesDescription')}
          icon={<IconNotes size={24} />}
        />
      </SimpleGrid>
    </Section>
  );
}

/** The patient portal lists its parts as plain items (not links) until their screens exist. */
export function PatientPanel() {
  const { t } = useTranslation('dashboard');
  const items = [
    { key: 'records', label: t('patient.records'), icon: <IconFolder size={18} /> },
    { key: 'appointments', label: t('patient.appointments'), icon: <IconCalendar size={18} /> },
    { key: 'messages', label: t('patient.messages'), icon: <IconMessage size={18} /> },
  ];
  return (
    <Section title={t('patient.sectionTitle')}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Card shadow="xs">
          <Text size="sm" c="dimmed" mb="sm">
            {t('patient.description')}
          </Text>
          <List spacing="sm" listStyleType="none" pl={0}>
            {items.map((item) => (
              <List.Item key={item.key}>
                <Group gap="sm" wrap="nowrap">
                  <ThemeIcon variant="light" size={34} radius="md" aria-hidden>
                    {item.icon}
                  </ThemeIcon>
                  <Text fw={600}>{item.label}</Text>
                </Group>
              </List.Item>
            ))}
          </List>
        </Card>
        <div style={{ alignSelf: 'start' }}>
          <CrisisLines />
        </div>
      </SimpleGrid>
    </Section>
  );
}
