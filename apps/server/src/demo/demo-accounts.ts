import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@telehealth/shared';
import { SYSTEM_ACTOR } from '../audit/audit.repository.ts';
import type { Auth } from '../auth/auth.ts';
import type { Database } from '../db/client.ts';
import { hashPassword } from '../auth/passwords.ts';
import { createAccount, type NewAccount, type ProviderProfile } from '../users/accounts.ts';
import { findUserByEmail } from '../users/users.repository.ts';

type DemoProviderEmail = Extract<(typeof DEMO_ACCOUNTS)[number], { role: 'provider' }>['email'];

/** The demo providers' directory records (every demo provider account has one). */
const DEMO_PROVIDER_PROFILES: Record<DemoProviderEmail, ProviderProfile> = {
  'provider@demo.test': {
    specialty: 'Psychiatry',
    experience: 14,
    bio: 'Adult psychiatrist focused on mood disorders and measurement-based care.',
    phone: '(503) 555-0142',
  },
  'provider2@demo.test': {
    specialty: 'Psychology',
    experience: 8,
    bio: 'Clinical psychologist offering cognitive behavioural therapy for anxiety and ADHD.',
    phone: '(503) 555-0187',
  },
};

/**
 * The demo password's hash, made once per process and shared by every demo account: the password is published on
 * the sign-in page, so one salt for all of them hides nothing, and each scrypt costs a tenth of a second of CPU (a
 * server test file starts several runtimes, each with the demo accounts).
 */
let demoPasswordHash: Promise<string> | undefined;

/** Creates the demo accounts that do not exist yet (a provider with its provider record); safe at every start. */
export async function ensureDemoAccounts(auth: Auth, db: Database): Promise<void> {
  for (const { label: _label, ...account } of DEMO_ACCOUNTS) {
    if (await findUserByEmail(db, account.email)) continue;
    const provider: ProviderProfile | undefined = (DEMO_PROVIDER_PROFILES as Record<string, ProviderProfile>)[
      account.email
    ];
    // The profiles are keyed by the demo providers' addresses, so a provider account always gets its record.
    const demo = { ...account, provider } as NewAccount;
    demoPasswordHash ??= hashPassword(auth, DEMO_PASSWORD).catch((error: unknown) => {
      demoPasswordHash = undefined;
      throw error;
    });
    const passwordHash = await demoPasswordHash;
    await db.transaction((tx) =>
      createAccount(tx, { ...demo, passwordHash, emailVerified: true }, { actor: SYSTEM_ACTOR }),
    );
  }
}

export function describeDemoAccounts(): string {
  const rows = DEMO_ACCOUNTS.map((a) => `  ${a.label.padEnd(16)} ${a.email}`);
  return ['Demo accounts (password for all: ' + DEMO_PASSWORD + '):', ...rows].join('\n');
}
