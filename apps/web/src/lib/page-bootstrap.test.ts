import { PAGE_BOOTSTRAP_META, type PageBootstrap } from '@telehealth/shared';
import { afterEach, describe, expect, it } from 'vitest';

import { applyPageBootstrap, sessionQueryKeys } from './auth.ts';
import { readPageBootstrap } from './page-bootstrap.ts';
import { queryClient } from './query-client.ts';

const BOOTSTRAP: PageBootstrap = {
  config: {
    practiceName: 'Harbor Psychiatry',
    demoMode: false,
    sessionIdleMinutes: 15,
    version: '1.0.0',
    demoAccounts: [],
    clinicPhone: null,
    bookingUrl: null,
    contactEmail: 'hello@harbor.example',
    emergencyBanner: { enabled: false, heading: null, body: null },
    practiceTimeZone: 'America/New_York',
    messageResponseBusinessDays: 2,
  },
  signedIn: false,
};

function setMeta(content: string | null): void {
  document.head.querySelector(`meta[name="${PAGE_BOOTSTRAP_META}"]`)?.remove();
  if (content === null) return;
  const meta = document.createElement('meta');
  meta.name = PAGE_BOOTSTRAP_META;
  meta.content = content;
  document.head.append(meta);
}

afterEach(() => {
  setMeta(null);
  queryClient.clear();
});

describe('the page bootstrap', () => {
  it('is read from the meta element the server fills in, and absent or malformed means none', () => {
    setMeta(JSON.stringify(BOOTSTRAP));
    expect(readPageBootstrap()).toEqual(BOOTSTRAP);
    setMeta('');
    expect(readPageBootstrap()).toBeNull();
    setMeta('{not json');
    expect(readPageBootstrap()).toBeNull();
    setMeta(null);
    expect(readPageBootstrap()).toBeNull();
  });

  it('seeds the configuration, and "nobody" when the page came without a session', () => {
    applyPageBootstrap(BOOTSTRAP);
    expect(queryClient.getQueryData(sessionQueryKeys.appConfig)).toEqual(BOOTSTRAP.config);
    expect(queryClient.getQueryData(sessionQueryKeys.currentUser)).toBeNull();
  });

  it('leaves the user to be asked for when the page came with a session or the server could not tell', () => {
    applyPageBootstrap({ ...BOOTSTRAP, signedIn: true });
    expect(queryClient.getQueryData(sessionQueryKeys.currentUser)).toBeUndefined();
    applyPageBootstrap({ ...BOOTSTRAP, signedIn: null });
    expect(queryClient.getQueryData(sessionQueryKeys.currentUser)).toBeUndefined();
  });

  it('ignores a bootstrap that does not have the expected shape', () => {
    applyPageBootstrap({ config: { practiceName: 'x' }, signedIn: false });
    expect(queryClient.getQueryData(sessionQueryKeys.appConfig)).toBeUndefined();
    expect(queryClient.getQueryData(sessionQueryKeys.currentUser)).toBeUndefined();
  });
});
