/**
 * Starts Switchyard: validates the settings, opens KV, serves HTTP and the
 * delivery job worker, and shuts down gracefully on SIGINT or SIGTERM.
 */
import { createApp, PROJECT_ROOT } from "./lib/app.ts";
import { createAdapters } from "./lib/delivery/adapters.ts";
import { atRestWarning } from "./lib/at_rest.ts";
import { followUpsHandled } from "./lib/chatops/discord/handle.ts";
import { updatesHandled } from "./lib/chatops/telegram/webhook.ts";
import { loadConfigOrExit } from "./lib/config.ts";
import { loadAssets } from "./lib/fresh/assets.ts";
import { createLogger } from "./lib/log.ts";
import { queueHandlers } from "./lib/queue_handlers.ts";
import { closeStore, openStoreWithRetry } from "./lib/store/kv.ts";
import { startQueueWorker } from "./lib/delivery/job_worker.ts";

const SHUTDOWN_GRACE_MS = 10_000;

const config = loadConfigOrExit();

const log = createLogger({ minLevel: config.logLevel });
for (const warning of config.warnings) log.warn(warning);
const atRest = atRestWarning(config);
if (atRest) log.warn(atRest);

const opening = openStoreWithRetry(config, {
  maxWaitMs: config.databaseStartWaitSeconds * 1000,
  onRetry: (attempt, reason, retryInMs) =>
    log.warn("store unreachable, trying again", { attempt, reason, retryInMs }),
}).catch((error) => {
  console.error(error instanceof Error ? error.message : String(error));
  Deno.exit(1);
});
const [kv, assets] = await Promise.all([opening, loadAssets(PROJECT_ROOT)]);
if (!assets.client) {
  log.warn("built assets are missing: run `deno task build` for styles and islands");
}
const adapters = createAdapters(config);
const app = createApp({ kv, config, log, assets, adapters });

const abort = new AbortController();
const server = serveOrExit();
const delivery = queueHandlers({ kv, config, log, adapters });
const worker = startQueueWorker(kv, delivery.handlers, log);

/** Serves the app; a port in use ends the process with one line saying what to change. */
function serveOrExit(): Deno.HttpServer {
  try {
    return Deno.serve({
      port: config.port,
      hostname: config.hostname,
      signal: abort.signal,
      onListen: ({ hostname, port }) => {
        log.info("listening", { address: `http://${hostname}:${port}`, baseUrl: config.baseUrl });
        log.info(`console at ${config.baseUrl}/admin`);
      },
    }, app.fetch);
  } catch (error) {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    console.error(
      `port ${config.port} is in use: set PORT to a free port (for example PORT=${
        config.port + 1
      })`,
    );
    closeStore(kv);
    Deno.exit(1);
  }
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info("shutting down", { signal });
  abort.abort();
  await Promise.race([server.finished, new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS))]);
  await worker.drain(SHUTDOWN_GRACE_MS);
  await delivery.stop();
  await Promise.race([
    Promise.all([updatesHandled(config), followUpsHandled()]),
    new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS)),
  ]);
  await closeStore(kv);
  log.info("stopped");
  Deno.exit(0);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => shutdown(signal));
}
