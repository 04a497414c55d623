import { GuestVideoScreen, VideoCallScreen } from '../../features/video/index.ts';

/** `/video-call/{appointmentId}`: the join link of a video visit (the patient's, and the provider's). */
export const joinRoute = { Component: () => <VideoCallScreen startMode={false} /> };

/** `/video-call/start/{appointmentId}`: the provider's start mode, with the share link and a test recording. */
export const startRoute = { Component: () => <VideoCallScreen startMode /> };

/** `/video-call/guest/{appointmentId}#token`: a guest's link (public: the guest has no account). */
export const guestRoute = { Component: GuestVideoScreen };
