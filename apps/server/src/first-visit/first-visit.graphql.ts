import type { FirstVisitItem, PatientReadiness } from './first-visit.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

/* Before the first visit (decision 068): the patient's checklist, and the staff's readiness badges. */

const FirstVisitItemRef = builder.objectRef<FirstVisitItem>('FirstVisitItem').implement({
  description: 'One thing a patient still has to do before their first visit.',
  fields: (t) => ({
    kind: t.string({ description: 'document, intake or questionnaire', resolve: (i) => i.kind }),
    id: t.id({ description: "The document's or questionnaire's id (the intake: the patient's)", resolve: (i) => i.id }),
    documentKind: t.string({ nullable: true, resolve: (i) => i.documentKind }),
    versionId: t.id({ nullable: true, description: "A document's version to sign", resolve: (i) => i.versionId }),
    titleEn: t.string({ nullable: true, description: "A document's title", resolve: (i) => i.titleEn }),
    titleEs: t.string({ nullable: true, resolve: (i) => i.titleEs }),
    status: t.string({
      description: 'document: to-sign or newer-version; intake: not-started or in-progress; questionnaire: pending',
      resolve: (i) => i.status,
    }),
    instrument: t.string({ nullable: true, description: "A questionnaire's instrument", resolve: (i) => i.instrument }),
  }),
});

const PatientReadinessRef = builder.objectRef<PatientReadiness>('PatientReadiness').implement({
  description: "Whether a patient is ready for the visit: the intake's state and the telehealth consent.",
  fields: (t) => ({
    patientId: t.id({ resolve: (r) => r.patientId }),
    intakeStatus: t.string({
      description: 'not-started, in-progress, submitted or accepted',
      resolve: (r) => r.intakeStatus,
    }),
    intakeBadge: t.string({
      nullable: true,
      description:
        'incomplete (the patient has not submitted it), to-review (submitted, the provider has not accepted it), or null',
      resolve: (r) => r.intakeBadge,
    }),
    consentMissing: t.boolean({
      description: 'The telehealth consent the practice asks for has no valid signature',
      resolve: (r) => r.consentMissing,
    }),
  }),
});

builder.queryFields((t) => ({
  myFirstVisitChecklist: t.field({
    type: [FirstVisitItemRef],
    description:
      'Patients. What the signed-in patient still has to do before the first visit (empty: nothing). Audited.',
    args: {
      patientId: t.arg.id({
        required: false,
        description: 'Optional: the record linked to the account (another: not found)',
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.firstVisit.myChecklist(
        callerOf(ctx, 'myFirstVisitChecklist'),
        args.patientId == null ? null : String(args.patientId),
      ),
  }),
  patientReadiness: t.field({
    type: [PatientReadinessRef],
    description:
      'Providers (their own patients) and administrators. Intake and consent badges of the patients shown, in one call (at most 200 ids); a patient out of reach is answered as not found. Audited.',
    args: { patientIds: t.arg.idList({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.firstVisit.readiness(callerOf(ctx, 'patientReadiness'), { patientIds: args.patientIds.map(String) }),
  }),
}));
