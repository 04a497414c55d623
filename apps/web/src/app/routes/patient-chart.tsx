import { Grid, Stack } from '@mantine/core';
import { can } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';

import { AccessDenied } from '../../components/access-denied.tsx';

import { PatientAppointments } from '../../features/appointments/index.ts';
import { BillingDocuments, BillingPanel } from '../../features/billing/index.ts';
import {
  EmergencyAccessBanner,
  EmergencyAccessOffer,
  useMyEmergencyAccess,
} from '../../features/emergency-access/index.ts';
import {
  AllergiesPanel,
  CaseTimeline,
  DiagnosesPanel,
  MedicationsPanel,
  NoteRecordAside,
  type TimelineScore,
  TreatmentPlanPanel,
  type LatestScores,
} from '../../features/clinical-record/index.ts';
import { PatientReadinessBadges } from '../../features/first-visit/index.ts';
import { IntakePanel } from '../../features/intake/index.ts';
import { MeasuresPanel, SafetyAlerts, useQuestionnaireResults } from '../../features/measures/index.ts';
import { RecordCorrectionsPanel } from '../../features/my-records/index.ts';
import { PatientConversationsPanel } from '../../features/messages/index.ts';
import { NotesScreen } from '../../features/notes/index.ts';
import { PatientChart } from '../../features/patients/index.ts';
import { PatientRecordAdmin } from '../../features/practice-data/index.ts';
import { PatientDocumentsPanel } from '../../features/practice-documents/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { readNoteAfterVisit } from '../../lib/note-after-visit.ts';
import { canReadPatients } from '../route-guard.ts';

/**
 * `/patients/{id}`: the patient chart, one place where a provider sees a patient whole: demographics, open and
 * past safety alerts, appointments, notes (never another's psychotherapy notes), and the measures over time.
 * The server decides who reaches it (the patient's providers, administrators for the record only) and records it.
 * A provider refused the chart is offered emergency access; a chart opened that way shows the banner, the measures
 * and the notes (never psychotherapy notes), read only (decision 036).
 */
function PatientChartRoute() {
  const { t } = useTranslation('common');
  const { id = '' } = useParams();
  const { data: user } = useCurrentUser();
  // Providers may break the glass (decision 036): the banner marks a chart opened that way, which is read only.
  const mayBreakGlass = can(user?.role, 'emergency-access:request');
  const emergency = useMyEmergencyAccess(id, mayBreakGlass);
  // "Write the note" after a video visit: the editor opens once; the history entry forgets it (no reopening on
  // a reload or going back).
  const location = useLocation();
  const navigate = useNavigate();
  const [noteForVisit] = useState(() => readNoteAfterVisit(location.state));
  useEffect(() => {
    if (readNoteAfterVisit(location.state)) void navigate(location.pathname, { replace: true, state: null });
  }, [location.state, location.pathname, navigate]);
  if (!user) return null;
  // A patient reads their own record in My Records; the chart is the care team's view.
  if (!canReadPatients(user)) {
    return (
      <AccessDenied
        message={t('accessDenied.chart')}
        action={{ to: '/dashboard', label: t('accessDenied.backToDashboard') }}
      />
    );
  }
  const clinician = can(user.role, 'note:read');
  const underEmergency = Boolean(emergency.data);
  return (
    <Stack gap="md">
      <EmergencyAccessBanner patientId={id} enabled={mayBreakGlass} />
      <PatientChart
        id={id}
        whenNotFound={mayBreakGlass ? <EmergencyAccessOffer patientId={id} /> : null}
        badges={can(user.role, 'readiness:read') && !underEmergency ? <PatientReadinessBadges patientId={id} /> : null}
      >
        {(patient) =>
          underEmergency ? (
            <Stack gap="md">
              <IntakePanel patientId={patient.id} canReview={false} />
              <DiagnosesPanel patientId={patient.id} canWrite={false} />
              <AllergiesPanel patientId={patient.id} canWrite={false} />
              <MedicationsPanel patientId={patient.id} canWrite={false} />
              <TreatmentPlanWithScores patientId={patient.id} canWrite={false} />
              <CaseAtAGlance patientId={patient.id} />
              <MeasuresPanel patientId={patient.id} canSend={false} />
              <NotesScreen
                canWrite={false}
                patient={{ id: patient.id, name: `${patient.firstName} ${patient.lastName}` }}
              />
            </Stack>
          ) : (
            <Stack gap="md">
              {can(user.role, 'alert:acknowledge') ? <SafetyAlerts patientId={patient.id} /> : null}
              {/* The patient's correction requests, answered by the care team. */}
              {can(user.role, 'correction:review') ? <RecordCorrectionsPanel patientId={patient.id} /> : null}
              {/* The intake packet (decision 067): its status, answers and review into the record. */}
              {can(user.role, 'intake:read') ? (
                <IntakePanel patientId={patient.id} canReview={can(user.role, 'intake:review')} />
              ) : null}
              {/* The psychiatric record (decision 062): the care team's, never the administrators'. */}
              {can(user.role, 'clinical-record:read') ? (
                <Grid>
                  <Grid.Col span={{ base: 12, md: 5 }}>
                    <Stack gap="md">
                      <DiagnosesPanel patientId={patient.id} canWrite={can(user.role, 'clinical-record:write')} />
                      <AllergiesPanel patientId={patient.id} canWrite={can(user.role, 'clinical-record:write')} />
                    </Stack>
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, md: 7 }}>
                    <MedicationsPanel patientId={patient.id} canWrite={can(user.role, 'clinical-record:write')} />
                  </Grid.Col>
                </Grid>
              ) : null}
              {can(user.role, 'clinical-record:read') ? (
                <TreatmentPlanWithScores patientId={patient.id} canWrite={can(user.role, 'clinical-record:write')} />
              ) : null}
              {can(user.role, 'clinical-record:read') && can(user.role, 'measure:read') ? (
                <CaseAtAGlance patientId={patient.id} />
              ) : null}
              {can(user.role, 'measure:read') ? (
                <Grid>
                  <Grid.Col span={{ base: 12, md: 5 }}>
                    <PatientAppointments patientId={patient.id} canSeeNow={can(user.role, 'visit:start')} />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, md: 7 }}>
                    <MeasuresPanel patientId={patient.id} canSend={can(user.role, 'measure:send')} />
                  </Grid.Col>
                </Grid>
              ) : (
                // Administrators see no measures: the appointments take the whole width.
                <PatientAppointments patientId={patient.id} />
              )}
              {/* The patient's ledger, superbills and statements (decision 073): their provider's and the administrators'. */}
              {can(user.role, 'billing:read') ? (
                <>
                  <BillingPanel patientId={patient.id} canWrite={can(user.role, 'billing:write')} />
                  <BillingDocuments patientId={patient.id} />
                </>
              ) : null}
              {/* The practice's documents and the patient's signatures (decision 066). */}
              {can(user.role, 'practice-document:read') ? (
                <PatientDocumentsPanel
                  patientId={patient.id}
                  canRecordPaper={can(user.role, 'practice-document:record-paper')}
                />
              ) : null}
              {/* The conversations about this patient the caller reaches. */}
              {can(user.role, 'message:read') || can(user.role, 'message:office') ? (
                <PatientConversationsPanel patientId={patient.id} />
              ) : null}
              {clinician || can(user.role, 'note:index') ? (
                <NotesScreen
                  canWrite={can(user.role, 'note:write')}
                  patient={{ id: patient.id, name: `${patient.firstName} ${patient.lastName}` }}
                  noteForVisit={noteForVisit}
                  recordAside={
                    can(user.role, 'clinical-record:write')
                      ? ({ patientId, noteId }) => <NoteRecord patientId={patientId} noteId={noteId} />
                      : undefined
                  }
                />
              ) : null}
              <PatientRecordAdmin
                patientId={patient.id}
                canExport={can(user.role, 'data:export')}
                canAudit={can(user.role, 'audit:read')}
              />
            </Stack>
          )
        }
      </PatientChart>
    </Stack>
  );
}

/** The patient's completed scores for the clinical record's views (null while they load). */
function useTimelineScores(patientId: string): TimelineScore[] | null {
  const results = useQuestionnaireResults(patientId);
  if (results.isError) return [];
  if (!results.data) return null;
  return results.data.flatMap((r) =>
    r.total === null ? [] : [{ instrument: r.instrument, total: r.total, at: r.completedAt ?? r.createdAt }],
  );
}

/** The medications and the scores on one time line: the two features' data, put side by side here. */
function CaseAtAGlance({ patientId }: { patientId: string }) {
  return <CaseTimeline patientId={patientId} scores={useTimelineScores(patientId)} />;
}

/** The record beside a medication-management or evaluation note, with the patient's scores. */
function NoteRecord({ patientId, noteId }: { patientId: string; noteId: string | null }) {
  return <NoteRecordAside patientId={patientId} noteId={noteId} scores={useTimelineScores(patientId)} />;
}

/** The treatment plan, its goals' progress read from the latest questionnaire totals (the measures' data). */
function TreatmentPlanWithScores({ patientId, canWrite }: { patientId: string; canWrite: boolean }) {
  const results = useQuestionnaireResults(patientId);
  let scores: LatestScores = null;
  if (results.data) {
    const latest: NonNullable<LatestScores> = {};
    const byTime = [...results.data]
      .filter((r) => r.total !== null)
      .sort((a, b) => (a.completedAt ?? a.createdAt).localeCompare(b.completedAt ?? b.createdAt));
    for (const r of byTime) latest[r.instrument] = r.total!;
    scores = latest;
  }
  return <TreatmentPlanPanel patientId={patientId} canWrite={canWrite} scores={scores} />;
}

export { PatientChartRoute as Component };
