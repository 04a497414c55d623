import { Button, Grid, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { CrisisLines } from '../../../components/crisis-lines/index.ts';
import { IconArrowRight, IconCheck } from '../../../components/icons.tsx';
import type { AccessRequestKind } from '../api/access-requests.ts';
import { AccessRequestForm } from './access-request-form.tsx';

export type { AccessRequestKind };

/** What happens after sending: a provider's steps (the specification's) differ from a patient's (decision 048). */
const NEXT_STEPS = {
  provider: ['review', 'verification', 'setup', 'training'],
  patient: ['review', 'contact', 'invitation', 'firstVisit'],
} as const;

function WhatsNext({ kind }: { kind: AccessRequestKind }) {
  const { t: typedT } = useTranslation('access-request');
  // The keys are whatsNext.<kind>.<step>, from NEXT_STEPS; all exist in en.
  const t = typedT as unknown as (key: string) => string;
  return (
    <Paper withBorder p="lg" component="aside" aria-labelledby={`whats-next-title-${kind}`} bg="clinical.0">
      <Title order={2} size="h4" mb="sm" id={`whats-next-title-${kind}`}>
        {t('whatsNext.title')}
      </Title>
      <List
        spacing="sm"
        size="sm"
        icon={
          <ThemeIcon size={22} radius="xl" variant="light" aria-hidden>
            <IconArrowRight size={14} />
          </ThemeIcon>
        }
      >
        {NEXT_STEPS[kind].map((step) => (
          <List.Item key={step}>{t(`whatsNext.${kind}.${step}`)}</List.Item>
        ))}
      </List>
    </Paper>
  );
}

/** A request form with its What's Next card and Back to Home; after sending, the thank-you screen. */
export function AccessRequestPanel({ kind, onBack }: { kind: AccessRequestKind; onBack: () => void }) {
  const { t } = useTranslation('access-request');
  const kindKey = kind === 'provider' ? 'provider' : 'patient';
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [submittedName, setSubmittedName] = useState<string | null>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, [kind, submittedName]);

  const backButton = (
    <Button variant="default" onClick={onBack} size="md">
      {t('backToHome')}
    </Button>
  );

  if (submittedName !== null) {
    return (
      <Stack gap="lg" align="flex-start">
        <ThemeIcon size={48} radius="xl" color="teal" variant="light" aria-hidden>
          <IconCheck size={28} />
        </ThemeIcon>
        <Title order={1} size="h2" ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
          {kind === 'provider'
            ? t('thankYou.provider', { lastName: submittedName })
            : t('thankYou.patient', { firstName: submittedName })}
        </Title>
        <Text size="lg">{t('thankYou.received')}</Text>
        <Text c="dimmed">{kind === 'provider' ? t('thankYou.providerBody') : t('thankYou.patientBody')}</Text>
        {kind === 'patient' ? <CrisisLines /> : null}
        <WhatsNext kind={kind} />
        {backButton}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2" ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
          {t(`${kindKey}.title`)}
        </Title>
        <Text c="dimmed" mt={6}>
          {t(`${kindKey}.intro`)}
        </Text>
        <Text size="sm" c="dimmed" mt={6}>
          {t('form.requiredNote')}
        </Text>
      </div>
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 2, md: 1 }}>
          <AccessRequestForm kind={kind} onSubmitted={setSubmittedName} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 1, md: 2 }}>
          <Stack gap="md" style={{ position: 'sticky', top: 16 }}>
            <WhatsNext kind={kind} />
            {backButton}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
