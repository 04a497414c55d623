import type { GraphQLResponse } from '../helpers.ts';

/** The data of a call that sets something up: any error fails the test at once, with the errors in full. */
export function dataOf<T>(response: GraphQLResponse<T>): T {
  if (!response.data || response.errors) throw new Error(JSON.stringify(response.errors));
  return response.data;
}

let serial = 0;

/** A number no other call of this test file has had. */
export function nextSerial(): number {
  return ++serial;
}

/** A name made of letters only (names refuse digits): a, b, ..., z, ba, bb, ... */
export const lettersOf = (n: number): string =>
  (n < 26 ? '' : lettersOf(Math.floor(n / 26))) + String.fromCharCode(97 + (n % 26));

/** An e-mail address no other record of this run has: `label`, a serial and a random part. */
export function uniqueEmail(label: string, domain = 'factory.example'): string {
  return `${label}.${nextSerial()}.${crypto.randomUUID().slice(0, 6)}@${domain}`;
}
