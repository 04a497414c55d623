export { VideoCallScreen, type ConsentStep } from './components/video-call-screen.tsx';
export { VideoWaitingAlert, useWaitingAppointmentIds } from './components/waiting-alert.tsx';
export { VisitRecordings } from './components/visit-recordings.tsx';
export { GuestVideoScreen } from './components/guest-video-screen.tsx';
