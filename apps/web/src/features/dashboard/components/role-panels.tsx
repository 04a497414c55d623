import { SimpleGrid, Stack, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { CrisisLines } from '../../../components/crisis-lines/index.ts';
import {
  IconCalendar,
  IconChart,
  IconFolder,
  IconMessage,
  IconReceipt,
  IconNotes,
  IconSettings,
  IconShield,
  IconUser,
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

/** The patient portal: each part of the patient's care is a page of its own. */
export function PatientPanel() {
  const { t } = useTranslation('dashboard');
  return (
    <Section title={t('patient.sectionTitle')}>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        <LinkCard
          to="/my/appointments"
          title={t('patient.appointments')}
          description={t('patient.appointmentsDescription')}
          icon={<IconCalendar size={24} />}
        />
        <LinkCard
          to="/my/records"
          title={t('patient.records')}
          description={t('patient.recordsDescription')}
          icon={<IconFolder size={24} />}
        />
        <LinkCard
          to="/messages"
          title={t('patient.messages')}
          description={t('patient.messagesDescription')}
          icon={<IconMessage size={24} />}
        />
        <LinkCard
          to="/my/documents"
          title={t('patient.documents')}
          description={t('patient.documentsDescription')}
          icon={<IconFolder size={24} />}
        />
        <LinkCard
          to="/my/billing"
          title={t('patient.billing')}
          description={t('patient.billingDescription')}
          icon={<IconReceipt size={24} />}
        />
        <LinkCard
          to="/my/record-access"
          title={t('patient.recordAccess')}
          description={t('patient.recordAccessDescription')}
          icon={<IconShield size={24} />}
        />
        <LinkCard
          to="/profile"
          title={t('patient.account')}
          description={t('patient.accountDescription')}
          icon={<IconUser size={24} />}
        />
      </SimpleGrid>
      <CrisisLines />
    </Section>
  );
}
