import { PlaceholderRoute } from './placeholder.tsx';

/** `/my/appointments`: the patient's appointments: upcoming and past, book, confirm, change, join. */
function MyAppointmentsRoute() {
  return <PlaceholderRoute screen="myAppointments" />;
}

export { MyAppointmentsRoute as Component };
