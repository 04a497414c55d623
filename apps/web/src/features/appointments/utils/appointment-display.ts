import { ownershipField, type AppointmentStatus, type Role } from '@telehealth/shared';

/** "Marta Solis" → "MS". */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}

/**
 * Each status's colours: a light ground and a dark text that keeps at least 7:1 on it (Mantine's 9th shades
 * fall below 4.5:1 on their own light badge grounds). The dark colour is also the event's ground on the calendar.
 */
export const STATUS_STYLES: Record<AppointmentStatus, { background: string; text: string }> = {
  scheduled: { background: 'var(--mantine-color-blue-0)', text: '#1e3a8a' },
  pending: { background: 'var(--mantine-color-yellow-0)', text: '#713f12' },
  confirmed: { background: 'var(--mantine-color-green-0)', text: '#14532d' },
  'checked-in': { background: 'var(--mantine-color-teal-0)', text: '#065f46' },
  'in-progress': { background: 'var(--mantine-color-violet-0)', text: '#4c1d95' },
  completed: { background: 'var(--mantine-color-gray-1)', text: '#374151' },
  cancelled: { background: 'var(--mantine-color-red-0)', text: '#7f1d1d' },
  'no-show': { background: 'var(--mantine-color-orange-0)', text: '#7c2d12' },
};

/**
 * Whom a visit is with, for the person looking at it: a patient sees their clinician ("Maya Okafor"), staff see
 * the patient. A visit is a patient's own through its patient record, so that is the role that sees the provider.
 */
export function counterpartName(
  appointment: { patient: string; providerName: string },
  role: Role | null | undefined,
): string {
  return role && ownershipField(role, 'appointment') === 'patientAccountId'
    ? appointment.providerName
    : appointment.patient;
}

/** The search parameters of `/calendar` that open one appointment: its date in view, its details open. */
export const CALENDAR_PARAMS = { date: 'date', appointment: 'appointment' } as const;

/** `/calendar` on the appointment's date with its details open (a dashboard's link to one appointment). */
export function calendarPathOf(appointment: { id: string; date: string }): string {
  const params = new URLSearchParams({
    [CALENDAR_PARAMS.date]: appointment.date,
    [CALENDAR_PARAMS.appointment]: appointment.id,
  });
  return `/calendar?${params.toString()}`;
}
