/** Appointments for server tests, booked by a member of staff through the API, and the days to book them on. */
import { addDays, todayIn } from '@telehealth/shared';
import type { GraphQLResponse, TestClient } from '../helpers.ts';
import { dataOf } from './graphql.ts';

/** The practice's time zone in tests (the default). */
export const TEST_ZONE = 'America/New_York';

const CREATE = 'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id startsAt } }';

/**
 * The first day of the week `weekday` (0 Sunday ... 6 Saturday) at least `weeksAhead` weeks and a day (or
 * `daysAhead` days) from today in the practice's zone.
 */
export function nextWeekday(weekday: number, weeksAhead: number, daysAhead = 1): string {
  let date = addDays(todayIn(TEST_ZONE), 7 * weeksAhead + daysAhead);
  while (new Date(`${date}T12:00:00Z`).getUTCDay() !== weekday) date = addDays(date, 1);
  return date;
}

/**
 * Books through createAppointment as `by`, answering the whole response (for tests that look at refusals):
 * `fields` adds to or replaces a 09:00 follow-up; `select` is the selection set of the answer.
 */
export function bookAppointment<T = { id: string; startsAt: string }>(
  by: TestClient,
  fields: Record<string, unknown>,
  select = 'id startsAt',
): Promise<GraphQLResponse<{ createAppointment: T }>> {
  const document = select === 'id startsAt' ? CREATE : CREATE.replace('{ id startsAt }', `{ ${select} }`);
  return by.gql<{ createAppointment: T }>(document, {
    input: { time: '09:00', reason: 'Medication follow-up', ...fields },
  });
}

/** bookAppointment for a set-up that must succeed: answers the appointment. */
export async function createAppointment<T = { id: string; startsAt: string }>(
  by: TestClient,
  fields: Record<string, unknown>,
  select = 'id startsAt',
): Promise<T> {
  return dataOf(await bookAppointment<T>(by, fields, select)).createAppointment;
}
