import { chromium } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
const BASE = 'http://localhost:3300';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', chromiumSandbox: false, args: ['--disable-gpu'] });
const shots: [number, number, string, string, string, string?][] = [
  [1280, 900, 'en', 'provider@demo.test', '/calendar'],
  [1280, 900, 'en', 'provider@demo.test', '/calendar', 'Week'],
  [390, 844, 'es', 'provider@demo.test', '/calendar'],
  [1280, 900, 'en', 'provider@demo.test', '/dashboard'],
  [390, 844, 'en', 'patient@demo.test', '/dashboard'],
  [1280, 900, 'en', 'admin@demo.test', '/calendar'],
];
for (const [w, h, lang, who, path, view] of shots) {
  const context = await browser.newContext({ viewport: { width: w, height: h }, timezoneId: 'America/Los_Angeles' });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  await page.goto(`${BASE}/login`);
  await page.evaluate((l) => localStorage.setItem('telehealth.language', l), lang);
  await page.request.post(`${BASE}/graphql`, { data: { query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }', variables: { e: who, p: 'DemoPass-2026!' } } });
  await page.goto(`${BASE}${path}`);
  await page.waitForTimeout(2000);
  if (view) { console.log(await page.getByText(view, { exact: true }).evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 200)))); await page.getByText(view, { exact: true }).first().click(); await page.waitForTimeout(1000); }
  const name = `/tmp/shot-${path.replaceAll('/', '_')}-${w}-${who.split('@')[0]}${view ?? ''}.png`;
  await page.screenshot({ path: name });
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  console.log(name, 'axe', axe.violations.map((v) => `${v.impact} ${v.id} ${v.nodes.length} ${v.nodes[0]?.html.slice(0, 160)} ${v.nodes[0]?.failureSummary?.slice(0, 200)}`));
  await context.close();
}
await browser.close();
