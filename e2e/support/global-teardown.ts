import { existsSync, rmSync } from 'node:fs';

/**
 * Deletes this run's server data folders. Playwright runs global teardown before it stops the web servers, so
 * at this moment the embedded PostgreSQL clusters still hold them: the deletion is scheduled for the runner's
 * exit, which comes after the servers have stopped (SIGTERM, see playwright.config.ts). The config registers
 * the same clean-up when it creates the folder, so runs that never reach teardown (--list, a failed start)
 * leave nothing behind either.
 */
export default function globalTeardown(): void {
  const root = process.env.TELEHEALTH_E2E_DATA_ROOT;
  if (!root) return;
  process.once('exit', () => {
    if (existsSync(root)) rmSync(root, { recursive: true, force: true });
  });
}
