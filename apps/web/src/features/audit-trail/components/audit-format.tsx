import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function formatDateTime(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
}

const LEVEL_COLORS: Record<string, string> = { INFO: 'blue', WARNING: 'orange', ERROR: 'red' };

/** An entry's level, in words and colour (the colour is never the only sign). */
export function LevelBadge({ level }: { level: string }) {
  const { t } = useTranslation('audit-trail');
  const color = LEVEL_COLORS[level] ?? 'gray';
  const known = level === 'INFO' || level === 'WARNING' || level === 'ERROR';
  return (
    <Badge variant="light" color={color} radius="sm" style={{ '--badge-color': `var(--mantine-color-${color}-9)` }}>
      {known ? t(`level.${level}`) : level}
    </Badge>
  );
}
