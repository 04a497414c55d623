import { randomBytes, randomInt } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { EmailSchema, PasswordSchema } from '@telehealth/shared';
import { createAccountWithPassword } from '../users/accounts.ts';
import { findUserByEmail } from '../users/users.repository.ts';
import { withCliRuntime } from './cli-runtime.ts';

const USAGE = 'Usage: npm run create-admin -- --email ADDRESS [--first-name NAME] [--last-name NAME] [--ask-password]';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    'first-name': { type: 'string', default: 'Practice' },
    'last-name': { type: 'string', default: 'Administrator' },
    'ask-password': { type: 'boolean', default: false },
  },
});

const email = EmailSchema.safeParse(values.email ?? '');
if (!email.success) {
  console.error(`${email.error.issues[0]?.message ?? 'Invalid email'}\n${USAGE}`);
  process.exit(2);
}

/** A one-time password that always meets the policy: random letters and digits plus one of each class. */
function oneTimePassword(): string {
  const body = randomBytes(12).toString('base64url');
  return `${body}a${randomInt(10)}Z!`;
}

async function askPassword(): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  try {
    for (;;) {
      const answer = await rl.question('Password for the new administrator: ');
      const checked = PasswordSchema.safeParse(answer);
      if (checked.success) return answer;
      console.error(checked.error.issues.map((i) => i.message).join(', '));
    }
  } finally {
    rl.close();
  }
}

await withCliRuntime(async ({ auth, database }) => {
  if (await findUserByEmail(database.db, email.data)) {
    console.error(`An account with the email ${email.data} already exists.`);
    return 1;
  }
  const password = values['ask-password'] ? await askPassword() : oneTimePassword();
  await createAccountWithPassword(
    auth,
    database.db,
    {
      email: email.data,
      firstName: values['first-name'],
      lastName: values['last-name'],
      role: 'admin',
      password,
      emailVerified: true,
    },
    { sessionId: null, userId: 'cli', userRole: 'system', clientIp: null, userAgent: 'create-admin' },
  );
  console.log(`Created the administrator ${email.data}.`);
  if (!values['ask-password']) console.log(`Password (shown only this once; keep it safe): ${password}`);
  return 0;
});
