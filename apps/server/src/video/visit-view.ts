import type { Caller } from '../access/caller.ts';
import type { AppError } from '../errors.ts';
import type { VideoIceServer, VideoRefusal, VideoRole } from '@telehealth/shared';
import type { VisitAppointment } from './video.repository.ts';

/** A token is good for this long; the page asks for a new one well before (which also keeps the session). */
export const TOKEN_SECONDS = 10 * 60;

/** The join screen's view of a visit: when it opens and closes, and whether the caller can join now. */
export interface VideoVisitView {
  appointmentId: string;
  room: string;
  role: VideoRole;
  status: string;
  appointmentType: string;
  startsAt: Date;
  endsAt: Date;
  opensAt: Date;
  closesAt: Date;
  closedReason: VideoRefusal | null;
  providerName: string;
  patientName: string;
  /** The patient record, for the visit's provider only (the note written after the visit). */
  patientId: string | null;
}

/** What the guests (video-guests.ts) use of the visit's rules, which VideoService keeps. */
export interface VisitRules {
  view(caller: Caller, appointment: VisitAppointment): VideoVisitView;
  viewFor(role: VideoRole, appointment: VisitAppointment): VideoVisitView;
  closed(reason: VideoRefusal, view: VideoVisitView): AppError;
  iceServers(peerId: string): VideoIceServer[];
}
