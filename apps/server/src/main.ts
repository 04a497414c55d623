import { ConfigError, loadConfig, type Config } from './config.ts';
import { buildApp } from './app.ts';
import { describeDemoAccounts } from './demo/demo-accounts.ts';
import { appDependencies, openRuntime } from './runtime.ts';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const bootLog = {
    info: (obj: unknown, msg?: string) => console.log(msg ?? obj),
    warn: (obj: unknown, msg?: string) => console.warn(msg ?? obj),
    error: (obj: unknown, msg?: string) => console.error(msg ?? obj, obj),
  };
  // Demo data is written by the runtime under its start-up lock, so instances started together seed it once.
  const runtime = await openRuntime(config, bootLog as never, config.demoMode ? { seedDemo: config.demoData } : {});
  const app = await buildApp(appDependencies(runtime));

  if (!config.smtpUrl) {
    app.log.warn(
      config.demoMode
        ? 'SMTP_URL is not set: e-mails are kept in the outbox (administrators read them at /admin/outbox) and not sent'
        : 'SMTP_URL is not set: e-mails (invitations, password resets) are kept in the outbox and NOT sent; set SMTP_URL',
    );
  }
  // Background work (mail delivery, the automatic logoff, rate-limit pruning) runs as jobs: the runtime started
  // the queue and stops it in close(). This file keeps no timers but the forced-shutdown guard.

  // On SIGTERM (decision 072): report not ready at once, keep serving while the load balancer's health checks see it
  // (SHUTDOWN_DRAIN_SECONDS), then stop taking requests, let those in flight finish, close the WebSockets (1001:
  // the browsers reconnect, through the balancer to another instance) and stop. A second signal skips the wait.
  let stopping = false;
  let skipDrain: (() => void) | undefined;
  const stop = async (signal: string) => {
    if (stopping) {
      skipDrain?.();
      return;
    }
    stopping = true;
    app.readiness.startDraining();
    const drainMs = config.shutdownDrainSeconds * 1000;
    if (drainMs > 0) {
      app.log.info({ signal, drainSeconds: config.shutdownDrainSeconds }, 'stopping: not ready, draining');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainMs);
        skipDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    app.log.info({ signal }, 'stopping: finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error('requests did not finish in 20 s; stopping anyway');
      void runtime.close().finally(() => process.exit(1));
    }, 20_000);
    try {
      await app.close();
      await runtime.close();
      clearTimeout(force);
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while stopping');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGHUP', () => void stop('SIGHUP'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    app.log.error({ err: error }, 'could not listen');
    await runtime.close();
    process.exit(1);
  }
  console.log(`${runtime.config.settings.current().practiceName} is running at ${config.publicUrl}`);
  // Last, so the accounts are what the person who started it sees without scrolling.
  if (config.demoMode) console.log(describeDemoAccounts());
}

try {
  await main();
} catch (error) {
  // Start-up problems (a busy data folder, an unreachable database) are the operator's to fix: say what.
  console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof Error && error.cause) console.error(error.cause);
  process.exit(1);
}
