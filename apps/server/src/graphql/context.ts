import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PublicCaller } from '../access/caller.ts';
import type { RequestScope, Scope } from '../access/scope.ts';
import type { AccessRequestsService } from '../access-requests/access-requests.service.ts';
import type { AppointmentsService } from '../appointments/appointments.service.ts';
import type { WaitlistService } from '../appointments/waitlist.service.ts';
import type { CalendarFeedService } from '../appointments/calendar-feed.service.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { ActiveSession, AuthService, RequestMeta, SessionUser } from '../auth/auth.service.ts';
import type { InvitationsService } from '../auth/invitations.service.ts';
import type { PasswordResetService } from '../auth/password-reset.service.ts';
import type { TwoFactorService } from '../auth/two-factor.service.ts';
import type { RecordingsService } from '../video/recordings.service.ts';
import type { VideoService } from '../video/video.service.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { unauthenticated } from '../errors.ts';
import type { MailService } from '../mail/mail.service.ts';
import type { MeasuresService } from '../measures/measures.service.ts';
import type { MessagesService } from '../messages/messages.service.ts';
import type { NotesService } from '../notes/notes.service.ts';
import type { PatientsService } from '../patients/patients.service.ts';
import type { ProvidersService } from '../providers/providers.service.ts';
import type { StoredTextService } from '../stored-text/stored-text-review.ts';
import type { AccountService } from '../auth/account.service.ts';
import type { PortalRecordsService } from '../portal-records/portal-records.service.ts';
import type { ReportsService } from '../reports/reports.service.ts';
import type { AdminUsersService } from '../users/admin-users.service.ts';
import type { EmergencyAccessService } from '../emergency-access/emergency-access.service.ts';
import type { AuditTrailService } from '../audit-trail/audit-trail.service.ts';
import type { BackupService } from '../practice-data/backup.service.ts';
import type { DataExportService } from '../practice-data/data-export.service.ts';
import type { AdminConsoleService } from '../admin-console/admin-console.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { IdempotencyKeys } from '../idempotency/idempotency-keys.ts';

export interface Services {
  config: Config;
  db: Database;
  authService: AuthService;
  patients: PatientsService;
  providers: ProvidersService;
  mail: MailService;
  invitations: InvitationsService;
  passwordReset: PasswordResetService;
  accessRequests: AccessRequestsService;
  twoFactor: TwoFactorService;
  storedText: StoredTextService;
  appointments: AppointmentsService;
  waitlist: WaitlistService;
  calendarFeeds: CalendarFeedService;
  video: VideoService;
  recordings: RecordingsService;
  notes: NotesService;
  measures: MeasuresService;
  portalRecords: PortalRecordsService;
  account: AccountService;
  messages: MessagesService;
  reports: ReportsService;
  adminUsers: AdminUsersService;
  emergencyAccess: EmergencyAccessService;
  auditTrail: AuditTrailService;
  dataExport: DataExportService;
  backups: BackupService;
  adminConsole: AdminConsoleService;
  settings: SettingsService;
  /** Idempotency-Keys of create mutations (decision 044). */
  idempotency: IdempotencyKeys;
}

/** Taken from the request: the session plugin resolved the session once, before the body was read. */
export interface GraphQLContext extends Services {
  request: FastifyRequest;
  reply: FastifyReply;
  meta: RequestMeta;
  /** The request's session; an operation that ends it (signOut) sets it to null for the rest of the operation. */
  session: ActiveSession | null;
  /** The audit actor for this request: the signed-in user, or anonymous. */
  actor: AuditActor;
  /** The signed-in caller's scope, built once per request (decision 054); null when signed out. */
  scope: RequestScope | null;
}

/** The signed-in user; throws UNAUTHENTICATED otherwise. */
export function requireUser(ctx: GraphQLContext): SessionUser {
  if (!ctx.session) throw unauthenticated();
  return ctx.session.user;
}

/** The signed-in caller of an operation, for services that check permissions themselves. */
export function callerOf(ctx: GraphQLContext, operation: string): Scope {
  requireUser(ctx);
  if (!ctx.scope) throw unauthenticated();
  return ctx.scope.as(operation);
}

/** The caller of a public operation: whoever it is, from which address. */
export function publicCallerOf(ctx: GraphQLContext, operation: string): PublicCaller {
  return { actor: ctx.actor, ip: ctx.meta.ip, operation };
}
