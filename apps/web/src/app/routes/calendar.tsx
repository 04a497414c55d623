import { can } from '@telehealth/shared';
import { useState } from 'react';

import { CalendarScreen } from '../../features/appointments/index.ts';
import { VisitCodingSection } from '../../features/billing/index.ts';
import { ReadinessBadges, usePatientReadiness } from '../../features/first-visit/index.ts';
import { useWaitingAppointmentIds, VideoWaitingAlert, VisitRecordings } from '../../features/video/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/**
 * `/calendar`: month, week and day views of the appointments, the list and the cards; for a provider, who
 * waits in a video visit (above, and on the visit's card); for staff, each card's patient's readiness before the
 * first visit (intake, telehealth consent), asked for all the cards shown at once.
 */
function CalendarRoute() {
  const { data: user } = useCurrentUser();
  const isProvider = user?.role === 'provider';
  const waiting = useWaitingAppointmentIds(isProvider);
  const seesReadiness = can(user?.role, 'readiness:read');
  // Staff who bill code a completed visit in its details (decision 073).
  const seesCoding = can(user?.role, 'billing:read') && user?.role !== 'patient';
  const canCode = can(user?.role, 'billing:write');
  const [patientIds, setPatientIds] = useState<string[]>([]);
  const readiness = usePatientReadiness(patientIds, seesReadiness);
  return (
    <CalendarScreen
      waitingAppointmentIds={waiting}
      banner={isProvider ? <VideoWaitingAlert /> : null}
      {...(isProvider || seesCoding
        ? {
            detailsExtra: (id: string) => (
              <>
                {isProvider ? <VisitRecordings appointmentId={id} /> : null}
                {seesCoding ? <VisitCodingSection appointmentId={id} canWrite={canCode} /> : null}
              </>
            ),
          }
        : {})}
      {...(seesReadiness
        ? {
            onPatientsShown: setPatientIds,
            cardExtra: (appointment: { patientId: string }) => (
              <ReadinessBadges readiness={readiness.data?.get(appointment.patientId)} />
            ),
          }
        : {})}
    />
  );
}

export { CalendarRoute as Component };
