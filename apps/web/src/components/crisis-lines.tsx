import { Anchor, Paper, Text, type PaperProps } from '@mantine/core';
import { CRISIS_LINE, EMERGENCY_LINE } from '@telehealth/shared';
import { Trans, useTranslation } from 'react-i18next';

/** A dark orange that keeps 6.7:1 on the orange-0 ground (Mantine's orange-9 is only 3.95:1). */
const CRISIS_TEXT_COLOR = '#9a3412';

/**
 * The crisis line (988) and emergency line (911) as tap-to-call links. A safety feature: it needs no network
 * call and is rendered on every public screen.
 */
export function CrisisLines({ withTitle = true, ...paperProps }: { withTitle?: boolean } & PaperProps) {
  const { t } = useTranslation();
  return (
    <Paper
      component="aside"
      aria-label={t('crisis.title')}
      p="md"
      bg="orange.0"
      bd="1px solid orange.3"
      {...paperProps}
    >
      {withTitle ? (
        <Text fw={700} size="sm" c={CRISIS_TEXT_COLOR} mb={4}>
          {t('crisis.title')}
        </Text>
      ) : null}
      <Text size="sm" c="dark.7">
        <Trans
          t={t}
          i18nKey="crisis.lines"
          values={{ crisisLine: CRISIS_LINE, emergencyLine: EMERGENCY_LINE }}
          components={{
            crisis: (
              <Anchor
                href={`tel:${CRISIS_LINE}`}
                fw={700}
                c={CRISIS_TEXT_COLOR}
                underline="always"
                aria-label={t('crisis.callCrisis', { number: CRISIS_LINE })}
              />
            ),
            emergency: (
              <Anchor
                href={`tel:${EMERGENCY_LINE}`}
                fw={700}
                c="red.9"
                underline="always"
                aria-label={t('crisis.callEmergency', { number: EMERGENCY_LINE })}
              />
            ),
          }}
        />
      </Text>
    </Paper>
  );
}
