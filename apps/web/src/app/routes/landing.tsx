import { Button, Container, Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { CrisisLines } from '../../components/crisis-lines.tsx';
import { IconCalendar, IconShield, IconVideo } from '../../components/icons.tsx';
import { PublicLayout } from '../../components/layouts/public-layout.tsx';
import { usePageTitle } from '../../hooks/use-page-title.ts';
import { useAppConfig } from '../../lib/auth.ts';

/** `/`: a short public welcome until the full landing page arrives. */
function LandingRoute() {
  const { t } = useTranslation(['common', 'screens']);
  const { data: config } = useAppConfig();
  const practiceName = config?.practiceName ?? t('brandFallback');
  usePageTitle(t('screens:landing'));

  const features = [
    { icon: <IconVideo size={20} />, text: t('landing.featureVisits') },
    { icon: <IconCalendar size={20} />, text: t('landing.featureScheduling') },
    { icon: <IconShield size={20} />, text: t('landing.featurePrivacy') },
  ];

  return (
    <PublicLayout practiceName={practiceName} crisisLinesInFooter={false}>
      <Container size="lg" py={{ base: 40, sm: 72 }}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48}>
          <Stack gap="lg">
            <Text tt="uppercase" fw={700} size="sm" c="clinical.8" style={{ letterSpacing: '0.06em' }}>
              {t('landing.eyebrow')}
            </Text>
            <Title order={1} fz={{ base: 34, sm: 46 }} lh={1.1}>
              {practiceName}
            </Title>
            <Text fz="xl" fw={600} c="dark.7">
              {t('landing.title')}
            </Text>
            <Text size="lg" c="dimmed">
              {t('landing.intro')}
            </Text>
            <Group gap="sm">
              <Button component={Link} to="/login" size="lg">
                {t('landing.signIn')}
              </Button>
              <Button component={Link} to="/login" size="lg" variant="default">
                {t('landing.requestAccess')}
              </Button>
            </Group>
          </Stack>
          <Stack gap="lg">
            <Paper withBorder p="xl" shadow="sm">
              <Title order={2} size="h4" mb="md">
                {t('landing.featuresTitle')}
              </Title>
              <List spacing="md" listStyleType="none" pl={0}>
                {features.map((feature) => (
                  <List.Item key={feature.text}>
                    <Group gap="sm" wrap="nowrap" align="flex-start">
                      <ThemeIcon variant="light" size={34} radius="md" aria-hidden>
                        {feature.icon}
                      </ThemeIcon>
                      <Text>{feature.text}</Text>
                    </Group>
                  </List.Item>
                ))}
              </List>
            </Paper>
            <CrisisLines />
          </Stack>
        </SimpleGrid>
      </Container>
    </PublicLayout>
  );
}

export { LandingRoute as Component };
