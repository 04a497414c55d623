import { count } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, PROVIDER_MESSAGES } from '@telehealth/shared';
import { providers } from '../src/providers/providers.table.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';

const CREATE =
  'mutation CreateDoctor($input: CreateDoctorInput!) { createDoctor(input: $input) { id firstName lastName email specialty experience phone bio isActive createdAt updatedAt owner } }';
const LIST =
  'query ListDoctors($limit: Int, $nextToken: String) { listDoctors(limit: $limit, nextToken: $nextToken) { items { id lastName owner isActive } nextToken } }';

let t: TestApp;
let admin: TestClient;
let provider: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app);
  provider = new TestClient(t.app);
  await admin.signIn('admin@demo.test', DEMO_PASSWORD);
  await provider.signIn('provider@demo.test', DEMO_PASSWORD);
});

describe('createDoctor', () => {
  it('lets administrators add a provider with a provider account', async () => {
    const response = await admin.gql<{ createDoctor: Record<string, unknown> }>(CREATE, {
      input: {
        firstName: ' Iris ',
        lastName: 'Novak',
        email: 'Iris.Novak@Practice.test',
        specialty: 'Psychiatry',
        experience: 12,
        bio: ' Child psychiatry ',
      },
    });
    expect(response.data?.createDoctor).toMatchObject({
      firstName: 'Iris',
      email: 'iris.novak@practice.test',
      specialty: 'Psychiatry',
      experience: 12,
      phone: null,
      bio: 'Child psychiatry',
      isActive: true,
      owner: expect.any(String) as unknown,
    });
    const again = await admin.gql(CREATE, {
      input: { firstName: 'Iris', lastName: 'Novak', email: 'iris.novak@practice.test', specialty: 'Psychiatry' },
    });
    expect(again.errors?.[0]?.message).toBe(PROVIDER_MESSAGES.alreadyProvider);
  });

  it('falls back to 0 years of experience and validates the rest', async () => {
    const response = await admin.gql<{ createDoctor: { experience: number } }>(CREATE, {
      input: { firstName: 'Omar', lastName: 'Iwu', email: 'omar.iwu@practice.test', specialty: 'Psychology' },
    });
    expect(response.data?.createDoctor.experience).toBe(0);
    const bad = await admin.gql(CREATE, {
      input: { firstName: '', lastName: 'Iwu', email: 'x', specialty: 'Astrology' },
    });
    expect(bad.errors?.[0]?.message).toBe(
      'Validation failed: First name is required, Please enter a valid email address, Please choose a specialty',
    );
  });

  it('refuses everyone but administrators', async () => {
    const response = await provider.gql(CREATE, {
      input: { firstName: 'Eve', lastName: 'Ill', email: 'eve@practice.test', specialty: 'Other' },
    });
    expect(response.errors).toEqual([
      expect.objectContaining({
        message: PROVIDER_MESSAGES.cannotCreate,
        extensions: { code: 'FORBIDDEN', messageId: 'providerMessages.cannotCreate', params: {} },
      }),
    ]);
  });
});

describe('listDoctors', () => {
  it('pages through every provider once', async () => {
    for (let i = 0; i < 5; i++) {
      await admin.gql(CREATE, {
        input: {
          firstName: 'Page',
          lastName: `Doctor ${'ABCDE'[i]}`,
          email: `doctor${i}@practice.test`,
          specialty: 'Other',
        },
      });
    }
    const ids: string[] = [];
    let nextToken: string | null = null;
    do {
      const response: { data: { listDoctors: { items: { id: string }[]; nextToken: string | null } } | null } =
        await provider.gql(LIST, { limit: 2, nextToken });
      ids.push(...response.data!.listDoctors.items.map((d) => d.id));
      nextToken = response.data!.listDoctors.nextToken;
    } while (nextToken);
    // Every provider record: the two demo providers' (which came with their accounts) and the seven added here.
    const [{ n } = { n: 0 }] = await t.runtime.database.db.select({ n: count() }).from(providers);
    expect(n).toBe(9);
    expect(ids).toHaveLength(n);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('one id per provider', () => {
  it("is the provider's account id, and what a patient's owner holds", async () => {
    const me = (await provider.me())!;
    const listed = await provider.gql<{ listDoctors: { items: { id: string; owner: string }[] } }>(LIST, {
      limit: 100,
    });
    expect(listed.data?.listDoctors.items.find((d) => d.id === me.userId)).toMatchObject({ owner: me.userId });
    const created = await provider.gql<{ createPatient: { owner: string } }>(
      'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { owner } }',
      { input: { firstName: 'Ona', lastName: 'Ident', email: 'ona.ident@example.net', dateOfBirth: '1988-08-08' } },
    );
    expect(created.data?.createPatient.owner).toBe(me.userId);
  });
});
