import { CalendarScreen } from '../../features/appointments/index.ts';
import { useWaitingAppointmentIds, VideoWaitingAlert, VisitRecordings } from '../../features/video/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/**
 * `/calendar`: month, week and day views of the appointments, the list and the cards; for a provider, who
 * waits in a video visit (above, and on the visit's card).
 */
function CalendarRoute() {
  const { data: user } = useCurrentUser();
  const isProvider = user?.role === 'provider';
  const waiting = useWaitingAppointmentIds(isProvider);
  return (
    <CalendarScreen
      waitingAppointmentIds={waiting}
      banner={isProvider ? <VideoWaitingAlert /> : null}
      {...(isProvider ? { detailsExtra: (id: string) => <VisitRecordings appointmentId={id} /> } : {})}
    />
  );
}

export { CalendarRoute as Component };
