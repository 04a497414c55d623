import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { Temporal } from 'temporal-polyfill';

export interface CalendarEventOptions {
  method: 'REQUEST' | 'CANCEL';
  /** Stable for the appointment's whole life, so that calendars update the event in place. */
  uid: string;
  /** Raised on every change the recipient's calendar must follow (decision 024). */
  sequence: number;
  startsAt: Date;
  endsAt: Date;
  /** The practice's zone: DTSTART/DTEND carry its TZID and the file its VTIMEZONE. */
  timeZone: string;
  summary: string;
  description: string;
  location: string | null;
  url: string | null;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
}

/**
 * One appointment as an iCalendar object (RFC 5545/5546), written by ical-generator: METHOD REQUEST for a new or
 * changed visit, CANCEL for a cancelled one, the same UID throughout and a SEQUENCE that rises, the times in the
 * practice's zone with its VTIMEZONE (without which Outlook shifts events by an hour). Nothing in it is health
 * information: the summary and description are the caller's, written without reason or notes.
 */
export function calendarEvent(options: CalendarEventOptions): string {
  const calendar = ical({
    prodId: { company: 'telehealth-practice', product: 'appointments', language: 'EN' },
    method: options.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    timezone: { name: options.timeZone, generator: getVtimezoneComponent },
  });
  // Zoned date-times, not Dates: given a Date and a zone, ical-generator writes the server's own local hours
  // under the practice's TZID (an invitation an hour or more off whenever the two zones differ).
  const zoned = (instant: Date) =>
    Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(options.timeZone);
  calendar.createEvent({
    id: options.uid,
    sequence: options.sequence,
    start: zoned(options.startsAt),
    end: zoned(options.endsAt),
    timezone: options.timeZone,
    stamp: new Date(),
    summary: options.summary,
    description: options.description,
    location: options.location,
    url: options.url,
    status: options.method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: options.organizer,
    attendees: [{ name: options.attendee.name, email: options.attendee.email, rsvp: false }],
  });
  return calendar.toString();
}

export interface FeedEvent {
  uid: string;
  sequence: number;
  startsAt: Date;
  endsAt: Date;
  summary: string;
  description: string;
  cancelled: boolean;
}

/**
 * A provider's subscription feed (METHOD PUBLISH): their appointments in the practice's zone, with the same UIDs
 * as the invitations, so a calendar that holds both shows each visit once. The caller writes summaries with the
 * patient's initials only.
 */
export function calendarFeed(options: { name: string; timeZone: string; events: FeedEvent[] }): string {
  const zoned = (instant: Date) =>
    Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(options.timeZone);
  const calendar = ical({
    prodId: { company: 'telehealth-practice', product: 'calendar-feed', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    name: options.name,
    timezone: { name: options.timeZone, generator: getVtimezoneComponent },
    ttl: 15 * 60,
  });
  for (const event of options.events) {
    calendar.createEvent({
      id: event.uid,
      sequence: event.sequence,
      start: zoned(event.startsAt),
      end: zoned(event.endsAt),
      timezone: options.timeZone,
      stamp: new Date(),
      summary: event.summary,
      description: event.description,
      status: event.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return calendar.toString();
}
