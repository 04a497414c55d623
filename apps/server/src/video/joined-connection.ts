import type { AuditActor } from '../audit/audit.repository.ts';
import type { VideoGrant } from './video-tokens.ts';

/** A connection's person in a visit, once `join` succeeded. */
export interface JoinedConnection {
  connectionId: string;
  grant: VideoGrant;
  actor: AuditActor;
}
