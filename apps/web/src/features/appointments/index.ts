export { AvailabilityScreen } from './components/availability-screen.tsx';
export { CalendarScreen } from './components/calendar-screen.tsx';
export {
  MyAppointments,
  PatientAppointments,
  TodaysAppointments,
  VisitRequests,
} from './components/dashboard-appointments.tsx';
export { NewAppointmentScreen } from './components/new-appointment-screen.tsx';
export { MyAppointmentsScreen } from './components/my-appointments-screen.tsx';
export { calendarPathOf } from './utils/appointment-display.ts';
