/**
 * The billing tables' own guarantees (decision 073), below any service: the ledger is written once, amounts are
 * whole cents signed by their effect, an entry is reversed at most once, a coding's version is added and the old
 * one superseded, and the balance is the sum of the entries.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { appendLedgerEntries, balanceOf, listLedger } from '../src/billing/billing.repository.ts';
import { ledgerEntries, visitCodings } from '../src/billing/billing.table.ts';
import { demoClients, type DemoClients } from './factories/accounts.ts';
import { createAppointment, nextWeekday } from './factories/appointments.ts';
import { insertCodedVisit, insertPayment } from './factories/billing.ts';
import { createPatient } from './factories/patients.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let clients: DemoClients;
let patientId: string;
let appointmentId: string;
const db = () => t.runtime.database.db;

beforeAll(async () => {
  t = await createTestApp();
  clients = await demoClients(t);
  patientId = (await createPatient(clients.provider)).id;
  appointmentId = (
    await createAppointment(clients.provider, { patientId, date: nextWeekday(2, 1), appointmentType: 'video' })
  ).id;
});

describe('the ledger store', () => {
  it('charges a coded visit in cents, takes a payment and sums to the balance', async () => {
    const { charges, coding } = await insertCodedVisit(t, {
      appointmentId,
      patientId,
      providerId: clients.providerId,
      codedBy: clients.providerId,
      serviceDate: '2026-11-02',
      services: [
        { code: '99214', feeCents: 17550 },
        { code: '90833', feeCents: 8025, addOn: true, units: 1 },
      ],
    });
    expect(coding.version).toBe(1);
    expect(charges.map((c) => c.amountCents).sort((a, b) => b - a)).toEqual([17550, 8025]);
    expect(await balanceOf(db(), patientId)).toBe(25575);
    await insertPayment(t, { patientId, amountCents: 25575, receivedOn: '2026-11-03', enteredBy: clients.adminId });
    expect(await balanceOf(db(), patientId)).toBe(0);
    // Oldest first: the visit's two charges (written in one transaction, in either order), then the payment.
    const listed = await listLedger(db(), t.runtime.keyring, patientId);
    expect(listed.map((row) => [row.entry.kind, row.entry.amountCents])).toEqual([
      ...(listed[0]?.entry.amountCents === 17550
        ? [
            ['charge', 17550],
            ['charge', 8025],
          ]
        : [
            ['charge', 8025],
            ['charge', 17550],
          ]),
      ['payment', -25575],
    ]);
  });

  it('refuses to change or delete an entry, and a second reversal of one', async () => {
    const [entry] = await listLedger(db(), t.runtime.keyring, patientId);
    await expect(
      db().update(ledgerEntries).set({ amountCents: 1 }).where(eq(ledgerEntries.id, entry!.entry.id)),
    ).rejects.toThrow();
    await expect(db().delete(ledgerEntries).where(eq(ledgerEntries.id, entry!.entry.id))).rejects.toThrow();
    const reversal = {
      patientId,
      kind: 'reversal' as const,
      amountCents: -entry!.entry.amountCents,
      entryDate: '2026-11-04',
      reason: 'Coded in error',
      reversesId: entry!.entry.id,
      enteredBy: clients.providerId,
    };
    await appendLedgerEntries(db(), t.runtime.keyring, [reversal]);
    await expect(appendLedgerEntries(db(), t.runtime.keyring, [reversal])).rejects.toThrow();
    const [stored] = await db()
      .execute<{ reason: string }>(sql`SELECT reason FROM ledger_entries WHERE reverses_id = ${entry!.entry.id}`)
      .then((r) => r.rows);
    expect(stored?.reason.startsWith('enc:')).toBe(true);
    const [read] = (await listLedger(db(), t.runtime.keyring, patientId)).filter((r) => r.entry.kind === 'reversal');
    expect(read?.entry.reason).toBe('Coded in error');
  });

  it('refuses a payment that adds, a charge that subtracts, and an adjustment without a reason', async () => {
    const base = { patientId, entryDate: '2026-11-05', enteredBy: clients.adminId };
    await expect(
      appendLedgerEntries(db(), t.runtime.keyring, [{ ...base, kind: 'payment', method: 'cash', amountCents: 100 }]),
    ).rejects.toThrow();
    await expect(
      appendLedgerEntries(db(), t.runtime.keyring, [{ ...base, kind: 'adjustment', amountCents: -100 }]),
    ).rejects.toThrow();
  });

  it('adds a coding version and marks the one before superseded', async () => {
    const second = await insertCodedVisit(t, {
      appointmentId,
      patientId,
      providerId: clients.providerId,
      codedBy: clients.providerId,
      serviceDate: '2026-11-02',
      services: [{ code: '99213', feeCents: 12000 }],
    });
    expect(second.coding.version).toBe(2);
    const versions = await db()
      .select({ version: visitCodings.version, superseded: visitCodings.supersededAt })
      .from(visitCodings)
      .where(eq(visitCodings.appointmentId, appointmentId))
      .orderBy(visitCodings.version);
    expect(versions.map((v) => [v.version, v.superseded !== null])).toEqual([
      [1, true],
      [2, false],
    ]);
  });
});
