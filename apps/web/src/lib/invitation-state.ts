export type InvitationLinkState =
  { state: 'open'; date: string } | { state: 'expired'; date: string } | { state: 'none'; date: null };

/** Whether an account's newest unused invitation link still works, with its expiry in the reader's language. */
export function invitationLinkState(
  expiresAt: string | null,
  locale: string,
  now: Date = new Date(),
): InvitationLinkState {
  if (!expiresAt) return { state: 'none', date: null };
  const when = new Date(expiresAt);
  if (Number.isNaN(when.getTime())) return { state: 'none', date: null };
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(when);
  return when.getTime() > now.getTime() ? { state: 'open', date } : { state: 'expired', date };
}
