import { Badge } from '@mantine/core';
import type { HealthVerdict } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

// Text colours that keep 7:1 or better on their light grounds (Mantine's own light badges fall short of AA).
const COLOURS: Record<HealthVerdict, { bg: string; fg: string }> = {
  OK: { bg: 'var(--mantine-color-teal-0)', fg: '#065f46' },
  ATTENTION: { bg: 'var(--mantine-color-yellow-0)', fg: '#713f12' },
  PROBLEM: { bg: 'var(--mantine-color-red-0)', fg: '#991b1b' },
};

/** OK, Attention or Problem as a badge, in the reader's language. */
export function VerdictBadge({ verdict, size = 'md' }: { verdict: HealthVerdict; size?: 'md' | 'lg' }) {
  const { t } = useTranslation('admin-console');
  const colour = COLOURS[verdict];
  return (
    <Badge
      variant="light"
      radius="sm"
      size={size}
      data-verdict={verdict}
      style={{ flexShrink: 0, '--badge-bg': colour.bg, '--badge-color': colour.fg }}
    >
      {t(`verdict.${verdict}`)}
    </Badge>
  );
}
