import { Text } from '@mantine/core';
import { AUDIT_EVENTS, type AuditEvent } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

// The audit events' names (locales/*/audit-trail.json, eventName) are shown wherever an event is: the audit trail,
// the console's recent activity, the compliance report (decision 050). Shared here, as no feature imports another.

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
