import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { sessions } from '../src/auth/auth.table.ts';
import { addJob } from '../src/jobs/add-job.ts';
import { createTestApp, sleep, TestClient } from './helpers.ts';

describe('automatic logoff', () => {
  it('ends a session after SESSION_IDLE_MINUTES without requests, and records the expiry', async () => {
    // 0.05 minutes = 3 seconds.
    const t = await createTestApp({ SESSION_IDLE_MINUTES: '0.05' });
    const client = new TestClient(t.app);
    const user = (await client.signIn('provider@demo.test', DEMO_PASSWORD)).user!;

    // Requests inside the window keep the session alive past the first deadline.
    for (let i = 0; i < 3; i++) {
      await sleep(1500);
      expect(await client.me()).not.toBeNull();
    }
    await sleep(3500);
    expect(await client.me()).toBeNull();
    const events = await t.runtime.database.db.select().from(auditEntries).where(eq(auditEntries.userId, user.userId));
    expect(events.map((e) => e.event)).toContain('SESSION_EXPIRED');
  });

  it('ends every session SESSION_MAX_HOURS after sign-in, however active', async () => {
    // 0.001 hours = 3.6 seconds.
    const t = await createTestApp({ SESSION_MAX_HOURS: '0.001' });
    const client = new TestClient(t.app);
    await client.signIn('provider@demo.test', DEMO_PASSWORD);
    const started = Date.now();
    while (Date.now() - started < 3000) {
      expect(await client.me()).not.toBeNull();
      await sleep(500);
    }
    await sleep(1200);
    expect(await client.me()).toBeNull();
  });

  it('sweeps idle sessions even when nobody comes back, through the job the crontab adds every minute', async () => {
    const t = await createTestApp({ SESSION_IDLE_MINUTES: '0.02' });
    const client = new TestClient(t.app);
    const user = (await client.signIn('patient@demo.test', DEMO_PASSWORD)).user!;
    await sleep(1500);
    const recorded = async () =>
      (await t.runtime.database.db.select().from(auditEntries).where(eq(auditEntries.userId, user.userId))).map(
        (e) => e.event,
      );
    // What the crontab's line adds each minute (test/jobs.test.ts checks the line); the test app's worker runs it.
    await addJob(t.runtime.database.db, 'sessions:sweep', {});
    await t.runtime.jobs.drain();
    expect(await recorded()).toContain('SESSION_EXPIRED');
    const [session] = await t.runtime.database.db.select().from(sessions).where(eq(sessions.userId, user.userId));
    expect(session).toBeUndefined();
  });

  it('keeps the browser cookie alive exactly as long as the server session', async () => {
    const t = await createTestApp({ SESSION_IDLE_MINUTES: '15' });
    const client = new TestClient(t.app);
    await client.signIn('provider@demo.test', DEMO_PASSWORD);
    const response = await client.gql('{ me { userId } }');
    const refreshed = response.setCookies.find((c) => c.startsWith('telehealth.session_token='));
    expect(refreshed).toMatch(/Max-Age=(899|900);/);
    expect(refreshed).toMatch(/HttpOnly/);
  });
});
