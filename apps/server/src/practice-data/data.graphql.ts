import path from 'node:path';
import type { BackupRun } from './backup.service.ts';
import type { FhirResourceType } from './fhir.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

// Issue 16, Data (/admin/data, decision 037): the backup history, "back up now", and what the FHIR export holds.
// The downloads themselves are plain HTTP routes (data/data.routes.ts).

const BackupRunRef = builder.objectRef<BackupRun>('BackupRun').implement({
  description: 'One backup: scheduled, started by an administrator, or by npm run backup on the server.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.exposeString('status', {
      description: 'running, succeeded, failed, or skipped (a scheduled one that met another backup)',
    }),
    trigger: t.exposeString('trigger', { description: 'schedule, manual or cli' }),
    startedAt: t.string({ resolve: (r) => r.startedAt.toISOString() }),
    finishedAt: t.string({ nullable: true, resolve: (r) => r.finishedAt?.toISOString() ?? null }),
    progress: t.exposeInt('progress', { description: 'Percent of the tables written, while it runs.' }),
    bytes: t.float({ nullable: true, resolve: (r) => r.bytes }),
    fileName: t.string({
      nullable: true,
      description: 'The backup file in BACKUP_DIR on the server.',
      resolve: (r) => (r.location ? path.basename(r.location) : null),
    }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

const ExportCountsRef = builder.objectRef<Record<FhirResourceType, number>>('FhirExportCounts').implement({
  description: "How many resources of each type the practice's FHIR export holds now.",
  fields: (t) => ({
    patients: t.int({ resolve: (c) => c.Patient }),
    practitioners: t.int({ resolve: (c) => c.Practitioner }),
    appointments: t.int({ resolve: (c) => c.Appointment }),
    observations: t.int({ resolve: (c) => c.Observation }),
    documentReferences: t.int({ resolve: (c) => c.DocumentReference }),
    conditions: t.int({ resolve: (c) => c.Condition }),
    medicationStatements: t.int({ resolve: (c) => c.MedicationStatement }),
    allergyIntolerances: t.int({ resolve: (c) => c.AllergyIntolerance }),
    carePlans: t.int({ resolve: (c) => c.CarePlan }),
    goals: t.int({ resolve: (c) => c.Goal }),
  }),
});

builder.queryField('backupRuns', (t) =>
  t.field({
    type: [BackupRunRef],
    description: 'Administrators: the newest backups, newest first.',
    args: { limit: t.arg.int() },
    resolve: (_root, args, ctx) => ctx.backups.list(callerOf(ctx, 'backupRuns'), args.limit ?? 20),
  }),
);

builder.queryField('fhirExportCounts', (t) =>
  t.field({
    type: ExportCountsRef,
    description: "Administrators: what the practice's FHIR export holds (psychotherapy notes never).",
    resolve: (_root, _args, ctx) => ctx.dataExport.counts(callerOf(ctx, 'fhirExportCounts')),
  }),
);

builder.mutationField('startBackup', (t) =>
  t.field({
    type: BackupRunRef,
    description: 'Administrators: back up now (a job); answers the run, or the one already running.',
    resolve: (_root, _args, ctx) => ctx.backups.start(callerOf(ctx, 'startBackup')),
  }),
);
