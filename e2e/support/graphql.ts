import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';

/** A GraphQL answer as it came back: its data, or its errors with their codes. */
export interface GraphQLBody<T> {
  data: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/**
 * One GraphQL call as the request context's signed-in person (its session cookie), from `origin` (the server
 * refuses a cross-site POST without it). For a test that looks at the answer, errors included.
 */
export async function graphqlCall<T>(
  request: APIRequestContext,
  origin: string,
  query: string,
  variables: object = {},
): Promise<GraphQLBody<T>> {
  const response = await request.post('/graphql', { headers: { origin }, data: { query, variables } });
  return (await response.json()) as GraphQLBody<T>;
}

/** One GraphQL call that sets up what a test then uses on screen: an error fails the test, with its message. */
export async function graphqlData<T>(
  request: APIRequestContext,
  origin: string,
  query: string,
  variables: object = {},
): Promise<T> {
  const body = await graphqlCall<T>(request, origin, query, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}
