import { Temporal } from 'temporal-polyfill';
import { zonedDateTime } from '@telehealth/shared';

/** 1000-01-01 and 10000-01-01 (UTC): inside, an ISO date has four year digits, as Temporal writes it. */
const FOUR_DIGIT_YEARS: readonly [number, number] = [-30_610_224_000_000, 253_402_300_800_000];
const MAX_SPANS = 1_000;

/** A stretch of time in which a zone keeps one UTC offset: [from, until), in epoch milliseconds. */
interface Span {
  from: number;
  until: number;
  offsetMs: number;
}

const spansByZone = new Map<string, Span[]>();

function offsetAt(zoned: Temporal.ZonedDateTime): number {
  return zoned.offsetNanoseconds / 1e6;
}

/** The span of `zone` around the instant: from Temporal's own transitions, worked out once per span. */
function spanAt(zone: string, epochMs: number): Span {
  let spans = spansByZone.get(zone);
  if (!spans) {
    spans = [];
    spansByZone.set(zone, spans);
  }
  for (const span of spans) if (epochMs >= span.from && epochMs < span.until) return span;
  const zoned = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(zone);
  const offsetMs = offsetAt(zoned);
  const next = zoned.getTimeZoneTransition('next');
  const previous = zoned.getTimeZoneTransition('previous');
  // The previous transition opened this span unless the instant is itself a transition (then the span starts here).
  const from = previous && offsetAt(previous) === offsetMs ? previous.epochMilliseconds : epochMs;
  const span = { from, until: next ? next.epochMilliseconds : Number.POSITIVE_INFINITY, offsetMs };
  if (spans.length >= MAX_SPANS) spans.length = 0;
  spans.push(span);
  return span;
}

/**
 * The practice date (YYYY-MM-DD) and time (HH:MM) of an instant in `zone`: exactly what `zonedDateTime` answers,
 * without Temporal's cost on every row of a list (a month of appointments shares one or two offsets). The zone's
 * offset is looked up once per stretch between two of its transitions; outside the years 1000-9999 Temporal
 * answers the instant itself.
 */
export function practiceDateTime(instant: Date, zone: string): { date: string; time: string } {
  const epochMs = instant.getTime();
  if (epochMs >= FOUR_DIGIT_YEARS[0] && epochMs < FOUR_DIGIT_YEARS[1]) {
    const local = epochMs + spanAt(zone, epochMs).offsetMs;
    if (local >= FOUR_DIGIT_YEARS[0] && local < FOUR_DIGIT_YEARS[1]) {
      const iso = new Date(local).toISOString();
      return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
    }
  }
  const { date, time } = zonedDateTime(instant, zone);
  return { date, time };
}
