import '@fullcalendar/react/skeleton.css';
import '@fullcalendar/react/themes/classic/theme.css';
import '@fullcalendar/react/themes/classic/palette.css';
import FullCalendar, { type DatesSetInfo, type EventChangeInfo, type EventInput } from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/react/daygrid';
import interactionPlugin from '@fullcalendar/react/interaction';
import esLocale from '@fullcalendar/react/locales/es';
import classicTheme from '@fullcalendar/react/themes/classic';
import timeGridPlugin from '@fullcalendar/react/timegrid';
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import {
  addDays,
  canReschedule,
  can,
  minutesOf,
  ERROR_CODES,
  isCalendarDate,
  todayIn,
  zonedDateTime,
  type AppointmentFilter,
  type AppointmentStatus,
} from '@telehealth/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { ProviderPicker } from '../../../components/person-pickers.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfig, useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { isGraphQLRequestError } from '../../../lib/graphql.ts';
import { useClinicZone } from '../../../hooks/use-clinic-zone.ts';
import { formatDay, zoneDiffers, zoneShortName } from '../../../lib/practice-dates.ts';
import { practiceHoursQueryOptions, type PracticeHours } from '../../../lib/practice-hours.ts';
import { appointmentsQueryOptions, useUpdateAppointment, type Appointment } from '../api/appointments-api.ts';
import { CALENDAR_PARAMS, counterpartName, STATUS_STYLES } from '../utils/appointment-display.ts';
import { AppointmentCard } from './appointment-card.tsx';
import { AppointmentDetailsModal } from './appointment-details-modal.tsx';
import classes from './calendar-screen.module.css';
import { ShareLinkDialog } from './share-link-dialog.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';

/**
 * The day and week views' hours: 07:00-19:00, widened to whatever any provider's working hours reach (a provider
 * working from 06:00 sees 06:00); a drag snaps to the practice's step of start times (decision 045).
 */
function calendarHoursOf(hours: PracticeHours | undefined): { from: string; to: string; snap: string } {
  const from = Math.min(7 * 60, hours?.earliestStart ? Math.floor(minutesOf(hours.earliestStart) / 60) * 60 : 7 * 60);
  const to = Math.max(19 * 60, hours?.latestEnd ? Math.ceil(minutesOf(hours.latestEnd) / 60) * 60 : 19 * 60);
  const clock = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;
  return { from: clock(from), to: clock(to), snap: clock(hours?.slotStepMinutes ?? 30) };
}

const VIEWS = { month: 'dayGridMonth', week: 'timeGridWeek', day: 'timeGridDay' } as const;

interface PendingMove {
  change: EventChangeInfo;
  message: string;
}

/**
 * `/calendar`: month, week and day views of the appointments (FullCalendar, in the practice's time zone), the
 * list under it ('Upcoming Appointments' or 'Appointments for {date}'), the specification's cards, View Details,
 * Share Link, and moving a visit by dragging or resizing it (the server checks it as any reschedule).
 */
export function CalendarScreen({
  waitingAppointmentIds,
  banner,
  detailsExtra,
  cardExtra,
  onPatientsShown,
}: {
  /** More on an appointment's card (the patient's readiness badges). */
  cardExtra?: (appointment: Appointment) => ReactNode;
  /** The patients of the cards shown, told when they change (so one request asks about them all). */
  onPatientsShown?: (patientIds: string[]) => void;
  /** More in an appointment's details (its video visit's recordings). */
  detailsExtra?: (appointmentId: string) => ReactNode;
  /** The visits someone waits in (video waiting room): their cards say so. */
  waitingAppointmentIds?: ReadonlySet<string>;
  /** Shown above the calendar (who waits in a video visit). */
  banner?: ReactNode;
} = {}) {
  const { t, i18n } = useTranslation('appointments');
  usePageTitle(t('calendar.title'));
  const { data: user } = useCurrentUser();
  const { data: config } = useAppConfig();
  const zone = config?.practiceTimeZone ?? 'America/New_York';
  const today = todayIn(zone);
  const isAdmin = user?.role === 'admin';
  const staff = can(user?.role, 'appointment:update');
  const [providerId, setProviderId] = useState<string | null>(null);
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const [view, setView] = useState<string>(VIEWS.month);
  const [selectedDate, setSelectedDate] = useState<string | null>(null);
  const [shareId, setShareId] = useState<string | null>(null);
  // `?date=…&appointment=…` (a dashboard's link to one appointment): that date in view, its details open.
  const [searchParams, setSearchParams] = useSearchParams();
  const linkedDate = searchParams.get(CALENDAR_PARAMS.date);
  const [detailsId, setDetailsId] = useState<string | null>(() => searchParams.get(CALENDAR_PARAMS.appointment));
  const closeDetails = () => {
    setDetailsId(null);
    if (searchParams.has(CALENDAR_PARAMS.appointment)) {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(CALENDAR_PARAMS.appointment);
          return next;
        },
        { replace: true },
      );
    }
  };
  const [notice, setNotice] = useState<{ color: string; text: string } | null>(null);
  const [pendingMove, setPendingMove] = useState<PendingMove | null>(null);
  const update = useUpdateAppointment();
  const calendarHours = calendarHoursOf(useQuery(practiceHoursQueryOptions).data);

  const filter: AppointmentFilter = { ...(range ?? { from: today, to: today }), ...(providerId ? { providerId } : {}) };
  const appointments = useQuery({
    ...appointmentsQueryOptions(filter),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
  const items = useMemo(() => appointments.data ?? [], [appointments.data]);

  const events: EventInput[] = useMemo(
    () =>
      items
        .filter((a) => a.status !== 'cancelled')
        .map((a) => ({
          id: a.id,
          title: counterpartName(a, user?.role),
          start: a.startsAt,
          end: a.endsAt,
          // The status's dark text colour as the event's ground: white on it keeps more than 7:1.
          color: STATUS_STYLES[a.status as AppointmentStatus]?.text ?? STATUS_STYLES.scheduled.text,
          textColor: '#ffffff',
          startEditable: staff && canReschedule(a.status as AppointmentStatus),
          durationEditable: staff && canReschedule(a.status as AppointmentStatus),
        })),
    [items, staff, user?.role],
  );

  const dayView = view === VIEWS.day;
  const listDate = dayView ? (range?.from ?? today) : selectedDate;
  const listed = items
    .filter((a) => a.status !== 'cancelled')
    .filter((a) => (listDate ? a.date === listDate : a.date >= today));

  const shownPatients = [...new Set(listed.map((a) => a.patientId))].sort().join(',');
  useEffect(() => {
    onPatientsShown?.(shownPatients ? shownPatients.split(',') : []);
  }, [shownPatients, onPatientsShown]);

  const move = (change: EventChangeInfo, allowOutsideHours: boolean) => {
    const start = change.event.start;
    const end = change.event.end;
    if (!start || !end) {
      change.revert();
      return;
    }
    const at = zonedDateTime(start, zone);
    const duration = Math.round((end.getTime() - start.getTime()) / 60_000);
    update.mutate(
      { id: change.event.id, date: at.date, time: at.time, duration, allowOutsideHours },
      {
        onSuccess: () => {
          setPendingMove(null);
          setNotice({
            color: 'green',
            text: t('calendar.moved', { date: formatDay(at.date, i18n.language), time: at.time }),
          });
        },
        onError: (error) => {
          if (!allowOutsideHours && isGraphQLRequestError(error) && error.code === ERROR_CODES.outsideWorkingHours) {
            setPendingMove({ change, message: describeError(error) });
            return;
          }
          change.revert();
          setPendingMove(null);
          setNotice({ color: 'red', text: describeError(error) });
        },
      },
    );
  };

  const clinic = useClinicZone();
  const nowAt = new Date();
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={1}>{t('calendar.title')}</Title>
        <Group gap="xs" wrap="wrap">
          {staff ? (
            <>
              <Button component={Link} to="/appointments/new">
                {t('calendar.schedule')}
              </Button>
              <Button component={Link} to="/availability" variant="default">
                {t('calendar.availability')}
              </Button>
              <Button component={Link} to="/waitlist" variant="default">
                {t('calendar.waitlist')}
              </Button>
            </>
          ) : null}
        </Group>
      </Group>
      {banner}
      {zoneDiffers(zone, clinic.viewerZone, nowAt) ? (
        <Text size="sm" c="dimmed" data-testid="zone-notice">
          {t('calendar.zoneNotice', { zone: `${zone}, ${zoneShortName(zone, nowAt, clinic.language)}` })}
        </Text>
      ) : null}
      {isAdmin ? (
        <ProviderPicker
          label={t('calendar.provider')}
          placeholder={t('calendar.allProviders')}
          value={providerId}
          onChange={setProviderId}
          clearable
        />
      ) : null}
      {notice ? (
        <Alert
          color={notice.color}
          variant="light"
          role={notice.color === 'red' ? 'alert' : 'status'}
          withCloseButton
          closeButtonLabel={t('calendar.closeNotice')}
          onClose={() => setNotice(null)}
        >
          {notice.text}
        </Alert>
      ) : null}
      {appointments.isError ? (
        <Alert color="red" variant="light" role="alert">
          {t('calendar.loadFailed')}: {describeError(appointments.error)}
        </Alert>
      ) : null}
      <div data-testid="calendar" aria-busy={appointments.isFetching} className={classes.calendar}>
        <FullCalendar
          plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin, classicTheme]}
          initialView={VIEWS.month}
          {...(linkedDate && isCalendarDate(linkedDate) ? { initialDate: linkedDate } : {})}
          timeZone={zone}
          locale={i18n.language === 'es' ? esLocale : 'en'}
          headerToolbar={{ start: 'prev,next today', center: 'title', end: 'dayGridMonth,timeGridWeek,timeGridDay' }}
          todayText={t('calendar.views.today')}
          todayHint={t('calendar.views.today')}
          monthText={t('calendar.views.month')}
          weekTextLong={t('calendar.views.week')}
          weekTextShort={t('calendar.views.week')}
          dayText={t('calendar.views.day')}
          prevHint={t('calendar.views.previous')}
          nextHint={t('calendar.views.next')}
          height="auto"
          dayMaxEvents={2}
          // A day's number in the month opens that day. Not in week view: there a header's visible text
          // ("Sun 22") is not part of its link name ("November 22, 2026"), which screen-reader users meet.
          navLinks={view === VIEWS.month}
          slotMinTime={calendarHours.from}
          slotMaxTime={calendarHours.to}
          slotDuration="00:30:00"
          snapDuration={calendarHours.snap}
          allDaySlot={false}
          nowIndicator
          events={events}
          eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
          slotHeaderFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
          datesSet={(info: DatesSetInfo) => {
            const from = zonedDateTime(info.start, zone).date;
            const to = addDays(zonedDateTime(info.end, zone).date, -1);
            setView(info.view.type);
            setRange((current) => (current?.from === from && current.to === to ? current : { from, to }));
            setSelectedDate(null);
          }}
          dateClick={(info) => {
            setSelectedDate(info.dateStr.slice(0, 10));
          }}
          eventClick={(info) => {
            info.jsEvent.preventDefault();
            setDetailsId(info.event.id);
          }}
          eventDrop={(change) => move(change, false)}
          eventResize={(change) => move(change, false)}
        />
      </div>
      <Stack gap="sm" component="section" aria-labelledby="appointment-list-title">
        <Group gap="xs" align="baseline">
          <Title order={2} size="h3" id="appointment-list-title">
            {listDate ? t('calendar.forDate', { date: formatDay(listDate, i18n.language) }) : t('calendar.upcoming')}
          </Title>
          <Text c="dimmed">{t('calendar.count', { count: listed.length })}</Text>
        </Group>
        {appointments.isPending && range !== null ? (
          <LoadingLine label={t('calendar.loading')} />
        ) : listed.length === 0 ? (
          <Stack gap="xs" align="flex-start">
            <Text>{t('calendar.empty')}</Text>
            {staff ? (
              <Button component={Link} to="/appointments/new" variant="light">
                {t('calendar.schedule')}
              </Button>
            ) : null}
          </Stack>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {listed.map((appointment: Appointment) => (
              <AppointmentCard
                key={appointment.id}
                appointment={appointment}
                onShare={(a) => setShareId(a.id)}
                onDetails={(a) => setDetailsId(a.id)}
                waiting={waitingAppointmentIds?.has(appointment.id) ?? false}
                extra={cardExtra?.(appointment)}
              />
            ))}
          </Stack>
        )}
      </Stack>
      <ShareLinkDialog appointmentId={shareId} onClose={() => setShareId(null)} />
      <AppointmentDetailsModal
        appointmentId={detailsId}
        canChange={staff}
        onClose={closeDetails}
        {...(detailsExtra ? { extra: detailsExtra } : {})}
      />
      <Modal
        opened={pendingMove !== null}
        onClose={() => {
          pendingMove?.change.revert();
          setPendingMove(null);
        }}
        title={t('calendar.confirmMoveTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('details.close') }}
      >
        <Stack gap="sm">
          <Text>{pendingMove?.message}</Text>
          <Group gap="xs">
            <Button
              color="yellow"
              loading={update.isPending}
              onClick={() => pendingMove && move(pendingMove.change, true)}
            >
              {t('calendar.bookAnyway')}
            </Button>
            <Button
              variant="default"
              onClick={() => {
                pendingMove?.change.revert();
                setPendingMove(null);
              }}
            >
              {t('calendar.keepTime')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
