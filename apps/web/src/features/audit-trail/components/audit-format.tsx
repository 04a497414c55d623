import { Badge, type ComboboxItem, type OptionsFilter } from '@mantine/core';
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

export { AuditEventName, useAuditEventName } from '../../../components/audit-event-name.tsx';

/** An event option matches what is typed in its name or its code (case and accents aside). */
export const matchEventByNameOrCode: OptionsFilter = ({ options, search }) => {
  const fold = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const wanted = fold(search.trim()).replace(/_/g, ' ');
  return (options as ComboboxItem[]).filter(
    (option) => fold(option.label).includes(wanted) || fold(option.value).replace(/_/g, ' ').includes(wanted),
  );
};
