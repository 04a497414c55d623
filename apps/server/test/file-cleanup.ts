import { onTestFinished } from 'vitest';

/**
 * What a test file opened (databases, runtimes, folders, servers) is closed when the file ends, wherever it was
 * opened: in a `beforeAll`, in a test or at the top of the file. Vitest runs an `afterAll` only when it is
 * registered while the file is collected; one registered inside a hook or a test is silently never run, so the
 * helpers record their clean-ups here instead, and `test/setup-file.ts` runs them after every file's own hooks.
 *
 * What a test opens for itself (inside `it` or `beforeEach`) the helpers close when that test ends instead
 * (`afterOpener`): a file that opens a server per test then holds one at a time, not all of them until its end, so
 * two files fit side by side in PostgreSQL's 100 connections (decision 055).
 */
type Cleanup = () => unknown;

const fileCleanups: Cleanup[] = [];
const testCleanups: Cleanup[] = [];

/** Runs `cleanup` when the current test file ends, after its own `afterAll` hooks; the last recorded runs first. */
export function afterFile(cleanup: Cleanup): void {
  fileCleanups.push(cleanup);
}

/**
 * Runs `cleanup` when the test that is running ends (after its own `onTestFinished` and `afterEach`), or, when no
 * test is running (a `beforeAll`, the top of the file), when the file ends. The last recorded runs first.
 */
export function afterOpener(cleanup: Cleanup): void {
  if (testCleanups.length === 0) {
    try {
      // Throws outside a test: then what was opened belongs to the file.
      onTestFinished(() => runAll(testCleanups, 'test'));
    } catch {
      afterFile(cleanup);
      return;
    }
  }
  testCleanups.push(cleanup);
}

/** Runs every clean-up recorded for the file, newest first. */
export function runFileCleanups(): Promise<void> {
  return runAll(fileCleanups, 'test file');
}

/**
 * Runs and empties `cleanups`, newest first (a runtime closes before its database is dropped), each one even when
 * an earlier one failed; throws what failed.
 */
async function runAll(cleanups: Cleanup[], what: string): Promise<void> {
  const failures: unknown[] = [];
  for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) {
    try {
      await cleanup();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} clean-ups of the ${what} failed`);
}
