import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { addDays, todayIn, type AuditEvent, type Instrument } from '@telehealth/shared';
import { actorScope } from '../access/scope.ts';
import { SYSTEM_ACTOR } from '../audit/audit.repository.ts';
import { ADVISORY_LOCKS } from '../db/advisory-locks.ts';
import type { Executor, Database } from '../db/client.ts';
import { appointments, waitlistEntries } from '../appointments/appointments.table.ts';
import { noteTemplates } from '../notes/notes.table.ts';
import { findLinkedPatient } from '../patients/patient-accounts.repository.ts';
import { findActivePatientsOf } from '../patients/patients.repository.ts';
import { appointmentsEncrypted, waitlistEntriesEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { insertAcknowledgedAlert, insertCompletedMeasure } from '../measures/measures.repository.ts';
import { insertConversation, insertMessage } from '../messages/messages.repository.ts';
import { insertAddendum, insertNote, signNoteRow } from '../notes/notes.repository.ts';
import { BlindIndex, MESSAGES_SEARCH_PURPOSE, NOTES_SEARCH_PURPOSE } from '../search/blind-index.ts';
import { findUserByEmail, findUserById } from '../users/users.repository.ts';
import {
  ADDENDA,
  DEMO_CONVERSATIONS,
  noteForVisit,
  RISK_ASSESSMENT_NOTE,
  SAFETY_ACKNOWLEDGEMENT,
  WAITLIST_REASONS,
  type DemoNote,
} from './clinical-data.ts';
import { seedDemoRecord } from './demo-record.ts';
import { createRandom } from './practice-data.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Random = ReturnType<typeof createRandom>;

/** Share of the demo providers' completed visits that have a note (the demo patient's always do). */
const NOTED_SHARE = 0.6;
/** Other patients of each demo provider with questionnaires over the months. */
const MEASURED_PER_PROVIDER = 3;

/**
 * The demo practice's clinical history (issue 25, decision 049), so that a chart is never empty on a first start:
 * signed notes (some with an addendum, a few recent drafts) for a good share of the demo providers' completed
 * visits; PHQ-9 and GAD-7 results over four months for several patients, improving for most and worsening for one,
 * the demo patient's with one PHQ-9 whose safety alert their provider acknowledged; the demo patient's
 * conversations (some unread); and a few patients on the waitlist. Video visits keep no rows of their own (a past
 * visit's state is its appointment's) and no recording is made. Runs once, after the schedule, when none of it
 * exists; deterministic but for the ids and the times, which follow `now`.
 */
export async function ensureDemoClinicalHistory(
  db: Database,
  keyring: Keyring,
  secret: string,
  zone: string,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCKS.demoClinical})`);
    const existing = await tx.execute<{ n: number }>(sql`SELECT
      (SELECT count(*) FROM notes) + (SELECT count(*) FROM measures) + (SELECT count(*) FROM conversations)
      + (SELECT count(*) FROM waitlist_entries) AS n`);
    if (Number(existing.rows[0]?.n ?? 0) > 0) return;
    const provider = await findUserByEmail(tx, 'provider@demo.test');
    const provider2 = await findUserByEmail(tx, 'provider2@demo.test');
    const admin = await findUserByEmail(tx, 'admin@demo.test');
    const patientAccount = await findUserByEmail(tx, 'patient@demo.test');
    if (!provider || !provider2 || !patientAccount) return;
    const demoPatient = await findLinkedPatient(tx, patientAccount.id);
    if (!demoPatient?.ownerId) return;

    const random = createRandom(2028);
    const seed = new ClinicalSeed(tx, keyring, secret, random, now);
    await seed.notesForVisits([provider.id, provider2.id], demoPatient.id);
    await seed.measures(provider.id, provider2.id, demoPatient.id, demoPatient.ownerId);
    await seed.conversations(demoPatient.id, patientAccount.id, demoPatient.ownerId, admin?.id ?? demoPatient.ownerId);
    await seed.waitlist([provider.id, provider2.id], demoPatient.id, todayIn(zone, now));
    await seed.audit();
  });
}

/** One run of the seed: the transaction, the search indexes, and what it wrote for the audit entries. */
class ClinicalSeed {
  readonly #written = new Map<AuditEvent, { ids: string[]; patientIds: Set<string>; idsKey: string }>();
  readonly #noteSearch: BlindIndex;
  readonly #messageSearch: BlindIndex;
  /** The built-in note templates' ids by key. */
  #templates = new Map<string | null, string>();

  readonly #tx: Executor;
  readonly #keyring: Keyring;
  readonly #random: Random;
  readonly #now: Date;

  constructor(tx: Executor, keyring: Keyring, secret: string, random: Random, now: Date) {
    this.#tx = tx;
    this.#keyring = keyring;
    this.#random = random;
    this.#now = now;
    this.#noteSearch = new BlindIndex(secret, NOTES_SEARCH_PURPOSE);
    this.#messageSearch = new BlindIndex(secret, MESSAGES_SEARCH_PURPOSE);
  }

  #record(event: AuditEvent, idsKey: string, id: string, patientId: string) {
    const entry = this.#written.get(event) ?? { ids: [], patientIds: new Set<string>(), idsKey };
    entry.ids.push(id);
    entry.patientIds.add(patientId);
    this.#written.set(event, entry);
  }

  /** Notes for the completed visits of the demo providers: signed after the visit, a few recent ones drafts. */
  async notesForVisits(providerIds: string[], demoPatientId: string) {
    this.#templates = new Map(
      (
        await this.#tx
          .select({ id: noteTemplates.id, key: noteTemplates.key })
          .from(noteTemplates)
          .where(isNotNull(noteTemplates.key))
      ).map((t) => [t.key, t.id]),
    );
    const visits = await this.#tx
      .select({
        id: appointments.id,
        patientId: appointments.patientId,
        providerId: appointments.providerId,
        reason: appointments.reason,
        endsAt: appointments.endsAt,
      })
      .from(appointments)
      .where(
        and(
          inArray(appointments.providerId, providerIds),
          eq(appointments.status, 'completed'),
          lt(appointments.endsAt, this.#now),
        ),
      )
      .orderBy(asc(appointments.startsAt));
    let demoAddendum = false;
    for (const row of visits) {
      const visit = appointmentsEncrypted.open(this.#keyring, row);
      const isDemo = visit.patientId === demoPatientId;
      if (!isDemo && this.#random.next() >= NOTED_SHARE) continue;
      const note = noteForVisit(this.#random, visit.reason);
      const writtenAt = new Date(visit.endsAt.getTime() + this.#random.int(5, 20) * MINUTE);
      const signedAt = new Date(writtenAt.getTime() + this.#random.int(10, 180) * MINUTE);
      const recent = this.#now.getTime() - visit.endsAt.getTime() < 2 * DAY;
      const draft = signedAt >= this.#now || (!isDemo && recent && this.#random.next() < 0.5);
      const noteId = await this.#note(note, visit.providerId, visit.patientId, visit.id, writtenAt, {
        signedAt: draft ? null : signedAt,
      });
      if (draft) continue;
      const wantsAddendum = isDemo ? !demoAddendum : this.#random.next() < 0.15;
      const addendumAt = new Date(signedAt.getTime() + this.#random.int(2, 26) * HOUR);
      if (wantsAddendum && addendumAt < this.#now) {
        await this.#addendum(noteId, visit.providerId, visit.patientId, this.#random.pick(ADDENDA), addendumAt);
        if (isDemo) demoAddendum = true;
      }
    }
  }

  async #note(
    note: DemoNote,
    authorId: string,
    patientId: string,
    appointmentId: string | null,
    writtenAt: Date,
    options: { signedAt: Date | null },
  ): Promise<string> {
    const tags = JSON.stringify(note.tags);
    const values = {
      title: note.title,
      content: note.content,
      tags,
      category: note.category,
      priority: 'medium',
      patientId,
      appointmentId,
      isPrivate: false,
      templateId: this.#templates.get(note.templateKey) ?? null,
      searchTokens: this.#noteSearch.tokensOf([note.title, note.content, note.tags.join(' ')]),
      searchKeyId: this.#noteSearch.keyId,
    };
    const id = await insertNote(this.#tx, this.#keyring, { ...values, authorId }, writtenAt);
    this.#record('NOTE_CREATE', 'noteIds', id, patientId);
    if (options.signedAt) {
      await signNoteRow(this.#tx, this.#keyring, { note: { ...values, id, version: 1 } }, authorId, options.signedAt);
      this.#record('NOTE_SIGN', 'noteIds', id, patientId);
    }
    return id;
  }

  async #addendum(noteId: string, authorId: string, patientId: string, content: string, signedAt: Date) {
    const row = await insertAddendum(this.#tx, this.#keyring, { noteId, noteVersion: 1, authorId, content, signedAt });
    this.#record('NOTE_ADDENDUM', 'addendumIds', row.id, patientId);
  }

  /**
   * PHQ-9 and GAD-7 results every two to three weeks over four months: the demo patient and three others of each
   * demo provider improve, the last of the second provider's worsens. The demo patient's third PHQ-9 answers item 9
   * above zero: its alert was acknowledged within the hour and a risk assessment signed that day.
   */
  async measures(providerId: string, provider2Id: string, demoPatientId: string, demoOwnerId: string) {
    const chosen: { patientId: string; ownerId: string; worsening: boolean }[] = [
      { patientId: demoPatientId, ownerId: demoOwnerId, worsening: false },
    ];
    for (const ownerId of [providerId, provider2Id]) {
      const own = await findActivePatientsOf(this.#tx, ownerId, ['lastName', 'firstName']);
      const others = own.filter((p) => p.id !== demoPatientId);
      for (let i = 0; i < MEASURED_PER_PROVIDER && others.length > 0; i++) {
        const [patient] = others.splice(this.#random.int(0, others.length - 1), 1);
        chosen.push({
          patientId: patient!.id,
          ownerId,
          worsening: ownerId === provider2Id && i === MEASURED_PER_PROVIDER - 1,
        });
      }
    }
    for (const [index, { patientId, ownerId, worsening }] of chosen.entries()) {
      const isDemo = patientId === demoPatientId;
      const daysAgo = isDemo ? [118, 104, 90, 76, 62, 48, 34, 20, 6] : [112, 91, 70, 49, 28, 9];
      const prescriber = await findUserById(this.#tx, ownerId);
      const record = await seedDemoRecord(this.#tx, this.#keyring, {
        patientId,
        providerId: ownerId,
        prescriber: prescriber?.name ?? '',
        // The demo patient has the anxiety regimen, whose escitalopram shows in their portal.
        index: isDemo ? 1 : index + (worsening ? 3 : 0),
        firstAgo: daysAgo[0]!,
        raisedAgo: daysAgo[2]!,
        now: this.#now,
      });
      for (const id of record.diagnosisIds) this.#record('DIAGNOSIS_ADD', 'diagnosisIds', id, patientId);
      for (const id of record.medicationIds) this.#record('MEDICATION_START', 'medicationIds', id, patientId);
      for (const instrument of ['phq9', 'gad7'] as const) {
        const max = instrument === 'phq9' ? 24 : 21;
        const start = worsening ? this.#random.int(5, 7) : Math.min(max, this.#random.int(15, 19));
        const end = worsening ? this.#random.int(16, 18) : this.#random.int(3, 7);
        for (const [i, ago] of daysAgo.entries()) {
          const planned = start + ((end - start) * i) / (daysAgo.length - 1) + this.#random.int(-1, 1);
          const total = Math.max(0, Math.min(max, Math.round(planned)));
          const alert = isDemo && instrument === 'phq9' && i === 2;
          const answers = answersFor(this.#random, instrument, alert ? Math.max(total, 16) : total, alert);
          const completedAt = new Date(this.#now.getTime() - ago * DAY - this.#random.int(0, 8 * 60) * MINUTE);
          const sentAt = new Date(completedAt.getTime() - this.#random.int(2, 30) * HOUR);
          const sum = answers.reduce((a, b) => a + b, 0);
          const measureId = await insertCompletedMeasure(this.#tx, this.#keyring, {
            patientId,
            instrument,
            requestedBy: ownerId,
            answers,
            difficulty: sum >= 15 ? 2 : sum >= 5 ? 1 : 0,
            sentAt,
            completedAt,
          });
          this.#record('QUESTIONNAIRE_SUBMITTED', 'measureIds', measureId, patientId);
          if (alert) await this.#acknowledgedAlert(patientId, measureId, ownerId, completedAt);
        }
      }
    }
  }

  async #acknowledgedAlert(patientId: string, measureId: string, providerId: string, raisedAt: Date) {
    const alertId = await insertAcknowledgedAlert(this.#tx, this.#keyring, {
      patientId,
      measureId,
      createdAt: raisedAt,
      acknowledgedAt: new Date(raisedAt.getTime() + 40 * MINUTE),
      acknowledgedBy: providerId,
      acknowledgement: SAFETY_ACKNOWLEDGEMENT,
    });
    this.#record('SAFETY_ALERT_RAISED', 'alertIds', alertId, patientId);
    this.#record('SAFETY_ALERT_ACKNOWLEDGED', 'alertIds', alertId, patientId);
    const writtenAt = new Date(raisedAt.getTime() + 90 * MINUTE);
    await this.#note(RISK_ASSESSMENT_NOTE, providerId, patientId, null, writtenAt, {
      signedAt: new Date(writtenAt.getTime() + 30 * MINUTE),
    });
  }

  /** The demo patient's conversations with their provider and with the office; the latest messages unread. */
  async conversations(patientId: string, patientAccountId: string, providerId: string, officeId: string) {
    for (const conversation of DEMO_CONVERSATIONS) {
      const startedAt = new Date(this.#now.getTime() - conversation.daysAgo * DAY + this.#random.int(0, 60) * MINUTE);
      const practiceId = conversation.kind === 'clinical' ? providerId : officeId;
      const times = conversation.messages.map((_, i) => new Date(startedAt.getTime() + i * 3 * HOUR));
      const last = conversation.messages.length - 1;
      const readAtOf = (i: number) =>
        i === last && conversation.lastUnread ? null : new Date(times[i]!.getTime() + HOUR);
      /** Each side has read up to its own latest message or the latest of the other side's it read. */
      const sideReadAt = (side: 'patient' | 'practice') => {
        const seen = conversation.messages.flatMap((m, i) =>
          m.from === side ? [times[i]!] : readAtOf(i) ? [readAtOf(i)!] : [],
        );
        return seen.length > 0 ? new Date(Math.max(...seen.map((d) => d.getTime()))) : null;
      };
      const conversationId = await insertConversation(this.#tx, this.#keyring, {
        patientId,
        kind: conversation.kind,
        subject: conversation.subject,
        createdBy: conversation.messages[0]?.from === 'practice' ? practiceId : patientAccountId,
        searchTokens: this.#messageSearch.tokensOf([conversation.subject]),
        searchKeyId: this.#messageSearch.keyId,
        createdAt: startedAt,
        lastMessageAt: times[last]!,
        patientReadAt: sideReadAt('patient'),
        practiceReadAt: sideReadAt('practice'),
      });
      this.#record('CONVERSATION_START', 'conversationIds', conversationId, patientId);
      for (const [i, message] of conversation.messages.entries()) {
        const readAt = readAtOf(i);
        const sent = await insertMessage(this.#tx, this.#keyring, {
          conversationId,
          senderId: message.from === 'patient' ? patientAccountId : practiceId,
          senderSide: message.from,
          body: message.body,
          searchTokens: this.#messageSearch.tokensOf([message.body]),
          searchKeyId: this.#messageSearch.keyId,
          createdAt: times[i]!,
          readAt,
          readBy: readAt ? (message.from === 'patient' ? practiceId : patientAccountId) : null,
        });
        this.#record('MESSAGE_SEND', 'messageIds', sent.id, patientId);
      }
    }
  }

  /** A few patients of each demo provider waiting for an earlier visit in the coming four weeks. */
  async waitlist(providerIds: string[], demoPatientId: string, today: string) {
    let n = 0;
    for (const providerId of providerIds) {
      const own = await findActivePatientsOf(this.#tx, providerId, ['firstName', 'lastName']);
      for (const patient of own.filter((p) => p.id !== demoPatientId).slice(0, 2)) {
        const id = randomUUID();
        const createdAt = new Date(this.#now.getTime() - this.#random.int(1, 10) * DAY);
        await this.#tx.insert(waitlistEntries).values(
          waitlistEntriesEncrypted.seal(this.#keyring, id, {
            id,
            patientId: patient.id,
            providerId,
            fromDate: today,
            toDate: addDays(today, 28),
            weekdays: n % 2 === 0 ? [1, 2, 3, 4, 5] : [2, 4],
            timeOfDay: this.#random.pick(['any', 'morning', 'afternoon'] as const),
            duration: 30,
            appointmentType: this.#random.next() < 0.5 ? 'video' : 'in-person',
            reason: WAITLIST_REASONS[n % WAITLIST_REASONS.length]!,
            createdBy: providerId,
            createdAt,
            updatedAt: createdAt,
          }),
        );
        this.#record('APPOINTMENT_CREATE', 'waitlistEntryIds', id, patient.id);
        n++;
      }
    }
  }

  /** One audit entry per kind of record written, as the demo practice's PATIENT_CREATE. */
  async audit() {
    const scope = actorScope({ ...SYSTEM_ACTOR, userAgent: 'demo seed' }, null);
    for (const [event, { ids, patientIds, idsKey }] of this.#written) {
      await scope.audit(this.#tx, event, {
        [idsKey]: ids,
        patientIds: [...patientIds],
        reason: 'demo clinical history',
      });
    }
  }
}

/**
 * Item answers (0-3) adding up to `total`, spread over the items at random. The PHQ-9's item 9 stays 0 unless
 * `selfHarm`, when it is 1 (and the total keeps its value).
 */
function answersFor(random: Random, instrument: Instrument, total: number, selfHarm: boolean): number[] {
  const count = instrument === 'phq9' ? 9 : 7;
  const answers = Array.from({ length: count }, () => 0);
  const open = instrument === 'phq9' ? 8 : 7;
  let left = total;
  if (selfHarm) {
    answers[8] = 1;
    left -= 1;
  }
  left = Math.min(left, open * 3);
  while (left > 0) {
    const i = random.int(0, open - 1);
    if (answers[i]! < 3) {
      answers[i]!++;
      left--;
    }
  }
  return answers;
}
