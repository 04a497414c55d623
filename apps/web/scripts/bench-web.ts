/**
 * Lighthouse (mobile) on `/` and `/login` of the production build, and the gzipped JavaScript that `/` loads.
 * Writes the "## Web (Lighthouse)" section of docs/performance.md.
 *
 *   npm run build -w @telehealth/web && node apps/web/scripts/bench-web.ts
 *
 * Starts the server (which serves apps/web/dist) on its own port with a throw-away database, in demo mode (the
 * emergency banner is on, as in the demo). Needs Chromium: CHROME_PATH (default /usr/bin/chromium).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const distDir = path.resolve(here, '../dist');
const docPath = path.join(repoRoot, 'docs/performance.md');
const PORT = Number(process.env['BENCH_WEB_PORT'] ?? 3390);
const PG_PORT = Number(process.env['BENCH_WEB_PG_PORT'] ?? 5590);
const BASE = `http://127.0.0.1:${PORT}`;
const PAGES = ['/', '/login'] as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
// Five: total blocking time varies from run to run by a hundred milliseconds and more.
const RUNS = Number(process.env['BENCH_WEB_RUNS'] ?? 5);

async function waitForHealth(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${BASE}/api/health`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The server did not answer at ${BASE}/api/health`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

interface PageResult {
  page: string;
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scripts: string[];
}

interface LhrSubset {
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    {
      title: string;
      score: number | null;
      numericValue?: number;
      details?: { items?: { url?: string; resourceType?: string; description?: string }[] };
    }
  >;
}

async function runLighthouse(url: string, port: number): Promise<LhrSubset> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    formFactor: 'mobile',
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  return result.lhr as unknown as LhrSubset;
}

async function measure(page: string, port: number): Promise<PageResult> {
  const runs: LhrSubset[] = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await runLighthouse(`${BASE}${page}`, port));
  const score = (lhr: LhrSubset, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const numeric = (lhr: LhrSubset, audit: string) => lhr.audits[audit]?.numericValue ?? 0;
  const last = runs[runs.length - 1];
  if (last) reportShortfalls(page, last);
  const scripts = (last?.audits['network-requests']?.details?.items ?? [])
    .filter((item) => item.resourceType === 'Script' && item.url?.startsWith(BASE))
    .map((item) => new URL(item.url ?? '').pathname);
  return {
    page,
    scores: {
      performance: median(runs.map((lhr) => score(lhr, 'performance'))),
      accessibility: median(runs.map((lhr) => score(lhr, 'accessibility'))),
      'best-practices': median(runs.map((lhr) => score(lhr, 'best-practices'))),
      seo: median(runs.map((lhr) => score(lhr, 'seo'))),
    },
    lcpMs: median(runs.map((lhr) => numeric(lhr, 'largest-contentful-paint'))),
    tbtMs: median(runs.map((lhr) => numeric(lhr, 'total-blocking-time'))),
    cls: median(runs.map((lhr) => numeric(lhr, 'cumulative-layout-shift'))),
    scripts: [...new Set(scripts)],
  };
}

/** Prints each scored audit that did not pass, so a lost point has a name. */
function reportShortfalls(page: string, lhr: LhrSubset): void {
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
      const items = (audit.details?.items ?? [])
        .map((item) => item.description ?? item.url)
        .filter(Boolean)
        .slice(0, 3);
      console.log(`  ${page} ${category}: ${ref.id} (${audit.title}) score ${audit.score}`, items.join(' | '));
    }
  }
}

/** Gzip (level 9, as a server would) each script file the page loaded, from the build folder. */
function gzippedKb(scriptPaths: string[]): { total: number; files: { file: string; kb: number }[] } {
  const files = scriptPaths.map((pathname) => {
    const content = readFileSync(path.join(distDir, pathname));
    return { file: pathname.replace(/^\//, ''), kb: gzipSync(content, { level: 9 }).length / 1024 };
  });
  return { total: files.reduce((sum, file) => sum + file.kb, 0), files: files.sort((a, b) => b.kb - a.kb) };
}

function section(
  results: PageResult[],
  js: ReturnType<typeof gzippedKb>,
  loginJs: ReturnType<typeof gzippedKb>,
  chromeVersion: string,
): string {
  const rows = results.map(
    (r) =>
      `| \`${r.page}\` | ${r.scores.performance} | ${r.scores.accessibility} | ${r.scores['best-practices']} | ${r.scores.seo} | ${Math.round(r.lcpMs)} ms | ${Math.round(r.tbtMs)} ms | ${r.cls.toFixed(3)} |`,
  );
  const fileRows = js.files.map((f) => `| \`${f.file}\` | ${f.kb.toFixed(1)} kB |`);
  return [
    '## Web (Lighthouse)',
    '',
    `Measured by \`npm run bench:web\` (apps/web/scripts/bench-web.ts) on ${new Date().toISOString().slice(0, 10)}:`,
    `Lighthouse ${lighthouseVersion()} mobile preset (simulated slow 4G, 4x CPU slowdown), ${chromeVersion}, production`,
    `build served by our server, median of ${RUNS} runs per page. Aim: performance >= 95, accessibility, best`,
    'practices and SEO 100, at most 100 kB of gzipped JavaScript on `/`.',
    '',
    '| page | performance | accessibility | best practices | SEO | LCP | TBT | CLS |',
    '| ---- | ----------- | ------------- | -------------- | --- | --- | --- | --- |',
    ...rows,
    '',
    `JavaScript loaded by \`/\`: **${js.total.toFixed(1)} kB gzipped** (level 9) in ${js.files.length} files:`,
    '',
    '| file | gzipped |',
    '| ---- | ------- |',
    ...fileRows,
    '',
    `For comparison, \`/login\` loads ${loginJs.total.toFixed(1)} kB gzipped in ${loginJs.files.length} files.`,
    '',
    'How the figures are reached (decisions 012 and 013): `/`, `/home`, `/coming-soon` and `/login` are the',
    "public site's own page (React, i18next and plain-CSS components; no router, query cache or component",
    'library), its configuration written into the HTML by the server, assets precompressed and immutable. On',
    '`/login` the sign-in logic (the shared schemas, the GraphQL client) loads just after the first paint, and',
    'the request forms with their component library only when a visitor opens one; signing in loads the',
    'single-page app. The `/login` total above counts what Lighthouse saw load, including that deferred code.',
    '',
  ].join('\n');
}

function lighthouseVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules/lighthouse/package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** Replaces the "## Web (Lighthouse)" section (up to the next "## " heading), or appends it. */
function writeSection(text: string): void {
  const doc = readFileSync(docPath, 'utf8');
  const start = doc.indexOf('## Web (Lighthouse)');
  if (start === -1) {
    writeFileSync(docPath, `${doc.trimEnd()}\n\n${text}`);
  } else {
    const next = doc.indexOf('\n## ', start + 3);
    const after = next === -1 ? '' : doc.slice(next + 1);
    writeFileSync(docPath, `${doc.slice(0, start)}${text}${after ? `\n${after}` : ''}`);
  }
  // The repository's formatting (tables aligned), so `npm run lint` stays green.
  spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/prettier/bin/prettier.cjs'), '--write', docPath], {
    stdio: 'inherit',
  });
}

async function main(): Promise<void> {
  readFileSync(path.join(distDir, 'index.html')); // fails early without a build
  const dataRoot = mkdtempSync(path.join(tmpdir(), 'bench-web-'));
  chmodSync(dataRoot, 0o777);
  const server = spawn(process.execPath, [path.join(repoRoot, 'apps/server/src/main.ts')], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      AUTH_SECRET: randomBytes(32).toString('base64url'),
      DATA_ENCRYPTION_KEY: `bench:${randomBytes(32).toString('base64')}`,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE,
      DATA_DIR: path.join(dataRoot, 'data'),
      EMBEDDED_PG_PORT: String(PG_PORT),
      DEMO_MODE: 'true',
      LOG_LEVEL: 'warn',
      WEB_DIST_DIR: distDir,
    },
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  // Interrupted (Ctrl-C, a timeout): stop the server, which stops its PostgreSQL, instead of leaving them running.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      chrome?.kill();
      server.kill('SIGTERM');
      process.exit(130);
    });
  }
  try {
    await waitForHealth(120_000);
    chrome = await chromeLauncher.launch({
      chromePath: process.env['CHROME_PATH'] ?? '/usr/bin/chromium',
      chromeFlags: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
    const version = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()) as { Browser: string };
    const results: PageResult[] = [];
    for (const page of PAGES) {
      const result = await measure(page, chrome.port);
      results.push(result);
      console.log(page, result.scores, `LCP ${Math.round(result.lcpMs)} ms`);
    }
    const js = gzippedKb(results[0]?.scripts ?? []);
    console.log(`JavaScript on /: ${js.total.toFixed(1)} kB gzipped`);
    const loginJs = gzippedKb(results[1]?.scripts ?? []);
    writeSection(section(results, js, loginJs, version.Browser.replace('/', ' ')));
    console.log(`Wrote the "Web (Lighthouse)" section of ${path.relative(repoRoot, docPath)}`);
  } finally {
    chrome?.kill();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataRoot, { recursive: true, force: true });
  }
}

await main();
