import { CalendarScreen } from '../../features/appointments/index.ts';

/** `/calendar`: month, week and day views of the appointments, the list and the cards. */
export const Component = CalendarScreen;
