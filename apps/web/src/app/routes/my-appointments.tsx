import { MyAppointmentsScreen } from '../../features/appointments/index.ts';

/** `/my/appointments`: the patient's appointments: upcoming and past, book, confirm, change, join. */
function MyAppointmentsRoute() {
  return <MyAppointmentsScreen />;
}

export { MyAppointmentsRoute as Component };
