import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { DEMO_PASSWORD, PAGE_BOOTSTRAP_META, PageBootstrapSchema, type PageBootstrap } from '@telehealth/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { renderPage } from '../src/web/web-app.ts';
import { createTestApp, TestClient } from './helpers.ts';

const TEMPLATE = (entry: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta name="${PAGE_BOOTSTRAP_META}" content="" />
    <title>Telehealth Practice Portal</title>
    <script type="module" crossorigin src="/assets/${entry}.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react.js">
  </head>
  <body><div id="root"></div></body>
</html>`;

/** A build as Vite writes it, small enough to read: two pages and the manifest the server follows. */
function writeFixtureBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-app-test-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(path.join(dir, 'index.html'), TEMPLATE('app'));
  fs.writeFileSync(path.join(dir, 'site.html'), TEMPLATE('site'));
  fs.writeFileSync(path.join(dir, 'assets/app.js'), 'export {};');
  const manifest = {
    'index.html': { file: 'assets/app.js', imports: ['_react.js'], isEntry: true },
    '_react.js': { file: 'assets/react.js' },
    '_forms.js': { file: 'assets/forms.js', imports: ['_react.js'], css: ['assets/forms.css'] },
    'site.html': { file: 'assets/site.js', imports: ['_react.js'], isEntry: true },
    'src/site-login.tsx': {
      file: 'assets/login.js',
      imports: ['_forms.js', '_react.js'],
      css: ['assets/login.css'],
    },
    'src/app/routes/account-setup.tsx': { file: 'assets/account-setup.js', imports: ['_forms.js'] },
    'src/app/routes/app-layout.tsx': { file: 'assets/app-layout.js', imports: ['_react.js'] },
    'src/app/routes/dashboard.tsx': { file: 'assets/dashboard.js' },
  };
  fs.writeFileSync(path.join(dir, '.vite/manifest.json'), JSON.stringify(manifest));
  return dir;
}

function bootstrapOf(html: string): PageBootstrap {
  const match = new RegExp(`<meta name="${PAGE_BOOTSTRAP_META}" content="([^"]*)">`).exec(html);
  if (!match?.[1]) throw new Error('no bootstrap in the page');
  const json = match[1]
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
  return PageBootstrapSchema.parse(JSON.parse(json));
}

function preloads(html: string): string[] {
  return [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]*href="\/([^"]+)"/g)].map((m) => m[1] ?? '');
}

describe('renderPage', () => {
  it('writes the bootstrap as an inert attribute, the practice name as title, and only new preloads', () => {
    const html = renderPage({
      template: TEMPLATE('app'),
      bootstrap: {
        config: {
          practiceName: 'Smith & "Jones" </title><script>alert(1)</script>',
          demoMode: false,
          sessionIdleMinutes: 15,
          version: '1',
          demoAccounts: [],
          clinicPhone: null,
          bookingUrl: null,
          contactEmail: 'a@b.example',
          emergencyBanner: { enabled: false, heading: null, body: null },
          practiceTimeZone: 'America/New_York',
          messageResponseBusinessDays: 2,
        },
        signedIn: false,
      },
      preload: { scripts: ['assets/react.js', 'assets/login.js'], styles: ['assets/login.css'] },
    });
    expect(html).not.toContain('<script>alert');
    // Element text needs & < > escaped; quotes only inside attribute values.
    expect(html).toContain('<title>Smith &amp; "Jones" &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(bootstrapOf(html).config.practiceName).toBe('Smith & "Jones" </title><script>alert(1)</script>');
    // react.js is named by the template already.
    expect(preloads(html)).toEqual(['assets/react.js', 'assets/login.js', 'assets/login.css']);
  });
});

describe('pages served with their bootstrap', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let distDir: string;
  beforeAll(async () => {
    distDir = writeFixtureBuild();
    t = await createTestApp({
      WEB_DIST_DIR: distDir,
      PRACTICE_NAME: 'Harbor Psychiatry',
      CONTACT_EMAIL: 'hello@harbor.example',
      CLINIC_PHONE: '(555) 010-2000',
    });
  });
  afterAll(() => {
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...headers, ...(cookie ? { cookie } : {}) } });

  it('sends the public site its own page, with the configuration the appConfig query answers', async () => {
    const client = new TestClient(t.app);
    const { data } = await client.gql<{ appConfig: Record<string, unknown> }>(
      '{ appConfig { practiceName demoMode sessionIdleMinutes version demoAccounts { email role label } clinicPhone bookingUrl contactEmail emergencyBanner { enabled heading body } practiceTimeZone messageResponseBusinessDays } }',
    );
    for (const url of ['/', '/home', '/coming-soon']) {
      const page = await get(url);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('private, no-cache');
      expect(page.body).toContain('src="/assets/site.js"');
      expect(page.body).toContain('<title>Harbor Psychiatry</title>');
      const bootstrap = bootstrapOf(page.body);
      expect(bootstrap).toEqual({ config: data?.appConfig, signedIn: false });
      expect(bootstrap.config.contactEmail).toBe('hello@harbor.example');
      expect(preloads(page.body)).toEqual(['assets/react.js']);
    }
  });

  it('sends the sign-in page and each request form’s address as the site’s page too, naming its module’s files', async () => {
    for (const url of ['/login', '/request-access/provider', '/request-access/patient']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('src="/assets/site.js"');
      expect(bootstrapOf(page.body).signedIn).toBe(false);
      expect(preloads(page.body), url).toEqual([
        'assets/react.js',
        'assets/login.js',
        'assets/forms.js',
        'assets/login.css',
        'assets/forms.css',
      ]);
    }
  });

  it('sends the single-page app for every other path, naming only what a signed-out visitor will use', async () => {
    for (const url of ['/dashboard', '/patients/1/edit', '/index.html', '/.vite/manifest.json']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('src="/assets/app.js"');
      expect(bootstrapOf(page.body).signedIn).toBe(false);
      // The app sends a signed-out visitor on to the sign-in page at once.
      expect(preloads(page.body)).toEqual(['assets/react.js']);
    }
    const invite = await get('/invite');
    expect(preloads(invite.body)).toEqual([
      'assets/react.js',
      'assets/account-setup.js',
      'assets/forms.js',
      'assets/forms.css',
    ]);
  });

  it('sends a signed-in person from the landing and login pages to the dashboard', async () => {
    const client = new TestClient(t.app);
    expect((await client.signIn('admin@demo.test', DEMO_PASSWORD)).success).toBe(true);
    for (const url of ['/', '/login', '/request-access/patient']) {
      const page = await get(url, client.cookie);
      expect(page.statusCode, url).toBe(302);
      expect(page.headers.location).toBe('/dashboard');
    }
    const about = await get('/home', client.cookie);
    expect(about.statusCode).toBe(200);
    expect(bootstrapOf(about.body).signedIn).toBe(true);
    const dashboard = await get('/dashboard', client.cookie);
    expect(bootstrapOf(dashboard.body).signedIn).toBe(true);
    expect(preloads(dashboard.body)).toEqual(['assets/react.js', 'assets/app-layout.js', 'assets/dashboard.js']);
  });

  it('compresses the page when the browser accepts it', async () => {
    const brotli = await get('/login', undefined, { 'accept-encoding': 'gzip, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    const gzip = await get('/login', undefined, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });
});
