import { PracticeDocumentToSign } from '../../features/practice-documents/index.ts';
import { GuestVideoScreen, VideoCallScreen, type ConsentStep } from '../../features/video/index.ts';

/** The telehealth consent, read and signed in the waiting room when the practice asks for it (decision 069). */
const telehealthConsent: ConsentStep = ({ onSigned }) => (
  <PracticeDocumentToSign kind="telehealth-consent" onSigned={onSigned} />
);

/** `/video-call/{appointmentId}`: the join link of a video visit (the patient's, and the provider's). */
export const joinRoute = {
  Component: () => <VideoCallScreen startMode={false} consentStep={telehealthConsent} />,
};

/** `/video-call/start/{appointmentId}`: the provider's start mode, with the share link and a test recording. */
export const startRoute = { Component: () => <VideoCallScreen startMode consentStep={telehealthConsent} /> };

/** `/video-call/guest/{appointmentId}#token`: a guest's link (public: the guest has no account). */
export const guestRoute = { Component: GuestVideoScreen };
