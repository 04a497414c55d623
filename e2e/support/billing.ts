/**
 * Billing data for browser tests (decision 073). Coding a visit through its screen is billing-ledger.spec.ts's
 * test; a spec about what reads the ledger (the portal's billing page, superbills) needs a visit coded days ago,
 * which the API cannot make (a visit is booked in the future and coded once completed), so it writes one straight
 * into the main server's embedded PostgreSQL, as the coding service would: the fee item if missing, the visit's
 * coding and line, and the line's charge. The provider's NPI is a column of `providers`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { MAIN_SERVER } from './servers.ts';

/** The main server's database: its embedded PostgreSQL, whose password it keeps in its data folder. */
function mainDatabaseUrl(): string {
  const root = process.env.TELEHEALTH_E2E_DATA_ROOT;
  if (!root) throw new Error('TELEHEALTH_E2E_DATA_ROOT is not set (playwright.config.ts sets it)');
  const password = readFileSync(path.join(root, 'server-3100', 'pg-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${MAIN_SERVER.embeddedPgPort}/postgres`;
}

async function withMainDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: mainDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Gives the provider an NPI, a taxonomy code and a licence (what a superbill prints). */
export async function setProviderBilling(providerId: string, npi = '1234567893'): Promise<void> {
  await withMainDatabase((client) =>
    client.query(
      `UPDATE providers SET npi = $2, taxonomy_code = '2084P0800X', license_state = 'NY', license_number = '301234'
       WHERE id = $1`,
      [providerId, npi],
    ),
  );
}

/** Codes the visit with one service (`code` at `feeCents`, modifier 95, diagnosis F32.1) and writes its charge. */
export async function insertCodedVisit(fields: {
  appointmentId: string;
  patientId: string;
  providerId: string;
  serviceDate: string;
  code?: string;
  feeCents?: number;
}): Promise<void> {
  const code = fields.code ?? '99214';
  const fee = fields.feeCents ?? 17500;
  await withMainDatabase(async (client) => {
    await client.query('BEGIN');
    try {
      await client.query(
        `INSERT INTO fee_schedule (code, short_name, fee_cents) VALUES ($1, $2, $3) ON CONFLICT (code) DO NOTHING`,
        [code, `Service ${code}`, fee],
      );
      const item = await client.query<{ id: string; short_name: string }>(
        'SELECT id, short_name FROM fee_schedule WHERE code = $1',
        [code],
      );
      const coding = await client.query<{ id: string }>(
        `INSERT INTO visit_codings (appointment_id, patient_id, provider_id, version, place_of_service, diagnosis_codes,
           service_date, coded_by)
         VALUES ($1, $2, $3, 1, '10', ARRAY['F32.1'], $4, $3) RETURNING id`,
        [fields.appointmentId, fields.patientId, fields.providerId, fields.serviceDate],
      );
      const line = await client.query<{ id: string }>(
        `INSERT INTO visit_coding_lines (coding_id, position, fee_item_id, code, short_name, add_on, units, modifiers,
           diagnosis_pointers, unit_fee_cents)
         VALUES ($1, 1, $2, $3, $4, false, 1, ARRAY['95'], ARRAY[1], $5) RETURNING id`,
        [coding.rows[0]!.id, item.rows[0]!.id, code, item.rows[0]!.short_name, fee],
      );
      await client.query(
        `INSERT INTO ledger_entries (patient_id, provider_id, appointment_id, coding_line_id, kind, amount_cents,
           entry_date, entered_by)
         VALUES ($1, $2, $3, $4, 'charge', $5, $6, $2)`,
        [fields.patientId, fields.providerId, fields.appointmentId, line.rows[0]!.id, fee, fields.serviceDate],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  });
}
