import { Button, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { IconArrowRight } from '../../../components/icons.tsx';

export type AccessRequestKind = 'provider' | 'patient';

/**
 * Stands in for the provider and patient access-request forms (a later release): says what happens after a
 * request, and returns to sign-in.
 */
export function AccessRequestPanel({ kind, onBack }: { kind: AccessRequestKind; onBack: () => void }) {
  const { t } = useTranslation('auth');
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, [kind]);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2" ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
          {kind === 'provider' ? t('request.providerTitle') : t('request.patientTitle')}
        </Title>
        <Text c="dimmed" mt={6}>
          {kind === 'provider' ? t('request.providerIntro') : t('request.patientIntro')}
        </Text>
      </div>
      <Paper withBorder p="md" bg="clinical.0" style={{ borderColor: 'var(--mantine-color-clinical-2)' }}>
        <Text>{t('request.soon')}</Text>
      </Paper>
      <Paper withBorder p="md">
        <Title order={2} size="h5" mb="xs">
          {t('request.whatsNextTitle')}
        </Title>
        <List
          spacing="xs"
          size="sm"
          icon={
            <ThemeIcon size={22} radius="xl" variant="light">
              <IconArrowRight size={14} />
            </ThemeIcon>
          }
        >
          <List.Item>{t('request.whatsNext.review')}</List.Item>
          <List.Item>{t('request.whatsNext.verification')}</List.Item>
          <List.Item>{t('request.whatsNext.setup')}</List.Item>
          <List.Item>{t('request.whatsNext.training')}</List.Item>
        </List>
      </Paper>
      <Button variant="default" onClick={onBack} size="md">
        {t('request.backToHome')}
      </Button>
    </Stack>
  );
}
