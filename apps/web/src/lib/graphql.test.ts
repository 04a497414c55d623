import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { getLastSuccessfulRequestAt, graphqlRequest, GraphQLRequestError, onUnauthenticated } from './graphql.ts';

function respondWith(body: unknown, status = 200) {
  return vi.fn(() =>
    Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('graphqlRequest', () => {
  it('posts the operation as JSON with the same-origin cookie and returns data', async () => {
    const fetchMock = respondWith({ data: { me: null } });
    vi.stubGlobal('fetch', fetchMock);

    await expect(graphqlRequest('query { me { userId } }', z.object({ me: z.null() }))).resolves.toEqual({ me: null });

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/graphql');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(JSON.parse(init.body as string)).toEqual({ query: 'query { me { userId } }', variables: {} });
  });

  it('sends an Idempotency-Key as the draft sf-string when given one, and none otherwise', async () => {
    const fetchMock = respondWith({ data: { ok: true } });
    vi.stubGlobal('fetch', fetchMock);
    await graphqlRequest('mutation { ok }', z.object({ ok: z.boolean() }), undefined, { idempotencyKey: 'k-1' });
    await graphqlRequest('mutation { ok }', z.object({ ok: z.boolean() }));
    const headersOf = (i: number) => (fetchMock.mock.calls[i] as unknown as [string, RequestInit])[1].headers;
    expect(headersOf(0)).toMatchObject({ 'Idempotency-Key': '"k-1"' });
    expect(headersOf(1)).not.toHaveProperty('Idempotency-Key');
  });

  it('records the send time of a successful request, unless the operation does not extend the session', async () => {
    vi.stubGlobal('fetch', respondWith({ data: { ok: true } }));
    const before = Date.now();
    await graphqlRequest('query { ok }', z.object({ ok: z.boolean() }));
    const recorded = getLastSuccessfulRequestAt();
    expect(recorded).toBeGreaterThanOrEqual(before);

    await new Promise((resolve) => setTimeout(resolve, 5));
    await graphqlRequest('query { ok }', z.object({ ok: z.boolean() }), undefined, { extendsSession: false });
    expect(getLastSuccessfulRequestAt()).toBe(recorded);
  });

  it('signals UNAUTHENTICATED errors and throws them with their code', async () => {
    vi.stubGlobal(
      'fetch',
      respondWith({
        data: null,
        errors: [{ message: 'Authentication required. Please sign in.', extensions: { code: 'UNAUTHENTICATED' } }],
      }),
    );
    const listener = vi.fn();
    const stop = onUnauthenticated(listener);
    const before = getLastSuccessfulRequestAt();

    const error = await graphqlRequest('query { patients { id } }', z.unknown()).catch((caught: unknown) => caught);
    stop();

    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect((error as GraphQLRequestError).code).toBe('UNAUTHENTICATED');
    expect((error as GraphQLRequestError).message).toBe('API Error: Authentication required. Please sign in.');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(getLastSuccessfulRequestAt()).toBe(before);
  });

  it('reports a network failure as such', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await graphqlRequest('query { me { userId } }', z.unknown()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect((error as GraphQLRequestError).kind).toBe('network');
  });

  it('reports a non-GraphQL answer (proxy error page) as an HTTP failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 }))),
    );
    const error = await graphqlRequest('query { me { userId } }', z.unknown()).catch((caught: unknown) => caught);
    expect((error as GraphQLRequestError).kind).toBe('http');
    expect((error as GraphQLRequestError).status).toBe(502);
  });
});
