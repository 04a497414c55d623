import { vi } from 'vitest';

export interface GraphQLCall {
  operationName: string;
  query: string;
  variables: Record<string, unknown>;
}

type Handler = (variables: Record<string, unknown>, call: GraphQLCall) => unknown;

const APP_CONFIG = {
  appConfig: {
    practiceName: 'Test Practice',
    demoMode: false,
    sessionIdleMinutes: 15,
    version: 'test',
    demoAccounts: [],
    clinicPhone: null,
    bookingUrl: null,
    emergencyBanner: { enabled: false, heading: null, body: null },
    practiceTimeZone: 'America/New_York',
    messageResponseBusinessDays: 2,
  },
};

/** What the practice's hours cover (public): every option, so forms show the specification's whole set. */
const PRACTICE_HOURS = {
  practiceHours: {
    slotStepMinutes: 30,
    earliestStart: '08:00',
    latestEnd: '18:00',
    preferredTimes: ['morning', 'afternoon', 'evening', 'weekends', 'flexible'],
  },
};

/**
 * Replaces `fetch` with a tiny GraphQL server: each handler answers one operation (named after the first word
 * after query/mutation) with `{ data }`, or a response body of its own when it returns `{ errors }`. The
 * practice configuration (asked for by every page title) and what the practice's hours cover are answered by
 * default and not recorded in `calls`.
 */
export function mockGraphQL(handlers: Record<string, Handler>) {
  const calls: GraphQLCall[] = [];
  const fetchMock = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    // graphqlRequest always sends a JSON string.
    const body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as {
      query: string;
      variables?: Record<string, unknown>;
    };
    const operationName = /^\s*(?:query|mutation)\s+(\w+)/.exec(body.query)?.[1] ?? 'anonymous';
    const call = { operationName, query: body.query, variables: body.variables ?? {} };
    if (operationName === 'AppConfig' && !handlers.AppConfig) {
      return new Response(JSON.stringify({ data: APP_CONFIG }), { headers: { 'content-type': 'application/json' } });
    }
    if (operationName === 'PracticeHours' && !handlers.PracticeHours) {
      return new Response(JSON.stringify({ data: PRACTICE_HOURS }), {
        headers: { 'content-type': 'application/json' },
      });
    }
    calls.push(call);
    const handler = handlers[operationName];
    if (!handler) throw new Error(`No mock for GraphQL operation ${operationName}`);
    const answer = await handler(call.variables, call);
    const payload = answer !== null && typeof answer === 'object' && 'errors' in answer ? answer : { data: answer };
    return new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}
