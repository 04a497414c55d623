import { Badge, Text, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { AUDIT_EVENTS, type AuditEvent } from '@telehealth/shared';
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

const KNOWN_EVENTS: ReadonlySet<string> = new Set(AUDIT_EVENTS);

function isKnownEvent(event: string): event is AuditEvent {
  return KNOWN_EVENTS.has(event);
}

/**
 * An event's name in the reader's language; an event this browser does not know (written by a newer server) shows
 * its code, so that no entry disappears or reads as something else.
 */
export function useAuditEventName(): (event: string) => string {
  const { t } = useTranslation('audit-trail');
  return (event) => (isKnownEvent(event) ? t(`eventName.${event}`) : event);
}

/** An entry's event: its name, with the code beneath it for those who search or write rules by code. */
export function AuditEventName({ event }: { event: string }) {
  const eventName = useAuditEventName();
  const name = eventName(event);
  return (
    <>
      <Text size="sm">{name}</Text>
      {name !== event ? (
        <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {event}
        </Text>
      ) : null}
    </>
  );
}

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
