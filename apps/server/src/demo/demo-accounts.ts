import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@telehealth/shared';
import type { AuditActor } from '../audit/audit.repository.ts';
import { createAccount, findAccountIdByEmail } from '../auth/accounts.ts';
import type { Auth } from '../auth/auth.ts';
import type { Database } from '../db/client.ts';

const SYSTEM_ACTOR: AuditActor = {
  sessionId: null,
  userId: 'system',
  userRole: 'system',
  clientIp: null,
  userAgent: null,
};

/** Creates the demo accounts that do not exist yet; safe to run at every start. */
export async function ensureDemoAccounts(auth: Auth, db: Database): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    if (await findAccountIdByEmail(db, account.email)) continue;
    await createAccount(auth, db, { ...account, password: DEMO_PASSWORD, emailVerified: true }, SYSTEM_ACTOR);
  }
}

export function describeDemoAccounts(): string {
  const rows = DEMO_ACCOUNTS.map((a) => `  ${a.label.padEnd(16)} ${a.email}`);
  return ['Demo accounts (password for all: ' + DEMO_PASSWORD + '):', ...rows].join('\n');
}
