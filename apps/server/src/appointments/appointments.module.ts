import { z } from 'zod';
import { defineModule } from '../modules/domain-module.ts';
import { AppointmentLiveUpdates } from './appointment-live.ts';
import { AppointmentNotifications } from './appointment-notifications.ts';
import { AppointmentsService } from './appointments.service.ts';
import { registerCalendarFeedRoute } from './calendar-feed.routes.ts';
import { CalendarFeedService } from './calendar-feed.service.ts';
import { WaitlistService } from './waitlist.service.ts';

const taskPayloads = {
  /** Sends the invitation or cancellation an appointment's state calls for (job key per appointment). */
  'appointment:notify': z.object({ appointmentId: z.uuid() }),
  /** Sends a reminder some hours before a visit, once (job key per appointment and hours). */
  'appointment:remind': z.object({ appointmentId: z.uuid(), hoursBefore: z.number().positive() }),
  /** Offers a provider's freed time to the waitlist (job key per provider and start). */
  'waitlist:offer': z.object({ providerId: z.uuid(), startsAt: z.iso.datetime(), endsAt: z.iso.datetime() }),
};
type AppointmentTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends AppointmentTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    appointments: AppointmentsService;
    waitlist: WaitlistService;
    calendarFeeds: CalendarFeedService;
  }
}

/** Booking, the schedule, the waitlist, invitations and reminders, calendar feeds. */
export default defineModule({
  name: 'appointments',
  after: ['mail'],
  taskPayloads,
  create: ({ db, secret, keyring, config, mail, log }) => {
    const appointments = new AppointmentsService({ db, secret, keyring, settings: config.settings });
    // The listeners of a change, inside its transaction: invitations and reminders, the waitlist's offers, and
    // the providers, who see their patients' bookings and requests live. (The video module adds its own.)
    const notifications = new AppointmentNotifications({ db, mail, config, log });
    appointments.addListener(notifications);
    const waitlist = new WaitlistService({ db, keyring, mail, config, appointments, log });
    appointments.addListener(waitlist);
    appointments.addListener(new AppointmentLiveUpdates());
    const calendarFeeds = new CalendarFeedService({ db, config });
    return {
      services: { appointments, waitlist, calendarFeeds },
      tasks: {
        'appointment:notify': async ({ appointmentId }) => {
          await notifications.notify(appointmentId);
        },
        'appointment:remind': async ({ appointmentId, hoursBefore }) => {
          await notifications.remind(appointmentId, hoursBefore);
        },
        'waitlist:offer': async ({ providerId, startsAt, endsAt }) => {
          await waitlist.offerFreedSlot({ providerId, startsAt: new Date(startsAt), endsAt: new Date(endsAt) });
        },
      },
    };
  },
  routes: (app, deps) => registerCalendarFeedRoute(app, deps.calendarFeeds),
});
