import { loadConfig } from '../config.ts';
import { openRuntime, type Runtime } from '../runtime.ts';

const quietLog = { info: () => undefined, warn: console.warn, error: console.error };

/** Opens the same database the server uses (a running server's embedded one included) for a command. */
export async function withCliRuntime(work: (runtime: Runtime) => Promise<number>): Promise<never> {
  let runtime: Runtime | undefined;
  let code = 1;
  try {
    // A command adds jobs (the server runs them) but runs none itself.
    runtime = await openRuntime(loadConfig(), quietLog as never, { shareRunningServer: true, runJobs: false });
    code = await work(runtime);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
  } finally {
    await runtime?.close();
  }
  process.exit(code);
}
