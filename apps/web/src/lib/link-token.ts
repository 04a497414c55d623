/**
 * The token of an e-mailed link that stands for its holder (a waitlist offer, a video visit guest): in the URL
 * fragment (`#TOKEN`), so that it never reaches a server log. Null unless it has the form the server issues.
 */
export function linkTokenFromHash(hash: string): string | null {
  const token = decodeURIComponent(hash.replace(/^#/, '')).trim();
  return /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : null;
}
