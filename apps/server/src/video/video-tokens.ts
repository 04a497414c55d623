import { createHmac, timingSafeEqual } from 'node:crypto';
import { VIDEO_ROLES, type VideoRole } from '@telehealth/shared';

/** What a video token says: who may join which visit, as what, until when. */
export interface VideoGrant {
  appointmentId: string;
  peerId: string;
  /** The account joining; null for a guest. */
  userId: string | null;
  /** The guest's invitation (video_guests); null for the provider and the patient. */
  guestId: string | null;
  role: VideoRole;
  /** The name the person gave on the join screen. */
  name: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

const VERSION = 'v1';

/**
 * Short-lived tokens for the signalling socket (decision 026): the grant as base64url JSON and an HMAC-SHA256
 * of it under a key derived from the server's secret, so any instance can check one without a database row.
 * A token is only a ticket: the socket checks the appointment again (cancelled, moved, over) when it is used.
 */
export class VideoTokens {
  readonly #key: Buffer;
  readonly #now: () => Date;

  constructor(secret: string, now: () => Date = () => new Date()) {
    this.#key = createHmac('sha256', secret).update('video-token:v1').digest();
    this.#now = now;
  }

  sign(grant: VideoGrant): string {
    const body = Buffer.from(
      JSON.stringify({
        a: grant.appointmentId,
        p: grant.peerId,
        u: grant.userId,
        g: grant.guestId,
        r: grant.role,
        n: grant.name,
        e: grant.expiresAt,
      }),
    ).toString('base64url');
    return `${VERSION}.${body}.${this.#mac(body)}`;
  }

  /** The grant of a genuine token that has not expired; null for anything else (tampered, expired, malformed). */
  verify(token: string): VideoGrant | null {
    const [version, body, mac] = token.split('.');
    if (version !== VERSION || !body || !mac) return null;
    const expected = Buffer.from(this.#mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
    const { a, p, u, g, r, n, e } = value;
    if (typeof a !== 'string' || typeof p !== 'string' || typeof n !== 'string' || typeof e !== 'number') return null;
    if (!(u === null || typeof u === 'string') || !(g === null || typeof g === 'string')) return null;
    const role = VIDEO_ROLES.find((candidate) => candidate === r);
    if (!role || e * 1000 <= this.#now().getTime()) return null;
    return { appointmentId: a, peerId: p, userId: u, guestId: g, role, name: n, expiresAt: e };
  }

  /** A person's stable, opaque id within one visit (not their account id: peers see it). */
  peerIdOf(appointmentId: string, personId: string): string {
    return createHmac('sha256', this.#key).update(`${appointmentId}:${personId}`).digest('base64url').slice(0, 16);
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}

/**
 * coturn's time-limited credentials (`use-auth-secret`): the username is `<expiry>:<opaque id>`, the password
 * base64(HMAC-SHA1(secret, username)). The id is the peer id, which says nothing about the person.
 */
export function turnCredentials(secret: string, peerId: string, expiresAt: number) {
  const username = `${expiresAt}:${peerId}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64') };
}
