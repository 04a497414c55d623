/**
 * What a test file opened (databases, runtimes, folders, servers) is closed when the file ends, wherever it was
 * opened: in a `beforeAll`, in a test or at the top of the file. Vitest runs an `afterAll` only when it is
 * registered while the file is collected; one registered inside a hook or a test is silently never run, so the
 * helpers record their clean-ups here instead, and `test/setup-file.ts` runs them after every file's own hooks.
 */
type Cleanup = () => unknown;

const cleanups: Cleanup[] = [];

/** Runs `cleanup` when the current test file ends, after its own `afterAll` hooks; the last recorded runs first. */
export function afterFile(cleanup: Cleanup): void {
  cleanups.push(cleanup);
}

/**
 * Runs every recorded clean-up, newest first (a runtime closes before its database is dropped), each one even when
 * an earlier one failed; throws what failed.
 */
export async function runFileCleanups(): Promise<void> {
  const failures: unknown[] = [];
  for (let cleanup = cleanups.pop(); cleanup; cleanup = cleanups.pop()) {
    try {
      await cleanup();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} clean-ups of the test file failed`);
}
