import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The start-up splash and the "checking your sign-in" state: a centred spinner with a spoken label. */
export function FullPageSpinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  const text = label ?? t('loading');
  return (
    <Center mih="100dvh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader size="lg" aria-hidden />
        <Text c="dimmed" size="sm">
          {text}
        </Text>
      </Stack>
    </Center>
  );
}
