/**
 * Development and build entry point.
 *
 *   deno run -A dev.ts manifest          write fresh.gen.ts
 *   deno run -A dev.ts manifest --check  fail when fresh.gen.ts is stale
 *   deno run -A dev.ts build             write fresh.gen.ts and build assets
 *   deno run -A dev.ts build --if-stale  build only when inputs changed
 *   deno run -A dev.ts watch             rebuild on change and restart the server
 */
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import config from "./fresh.config.ts";
import { buildAssets } from "./lib/fresh/build.ts";
import { buildIsStale } from "./lib/fresh/stale.ts";
import { manifestIsCurrent, writeManifest } from "./lib/fresh/manifest.ts";

const root = dirname(fileURLToPath(import.meta.url));

async function build(): Promise<void> {
  await writeManifest(root);
  const started = performance.now();
  const assets = await buildAssets({ root, stylesheet: config.stylesheet });
  const ms = Math.round(performance.now() - started);
  console.log(`built ${Object.keys(assets.islands).length} islands and styles in ${ms} ms`);
}

async function watch(): Promise<void> {
  await build();
  let server = startServer();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watcher = Deno.watchFs(config.buildInputs.map((p) => join(root, p)));
  for await (const event of watcher) {
    if (event.paths.every((p) => basename(p) === "fresh.gen.ts" || p.includes("/_fresh/"))) {
      continue;
    }
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        await build();
        server.kill("SIGTERM");
        await server.status;
        server = startServer();
      } catch (error) {
        console.error(error instanceof Error ? error.message : error);
      }
    }, 150);
  }
}

function startServer(): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), { args: ["run", "-A", join(root, "main.ts")] }).spawn();
}

const [command, flag] = Deno.args;
if (command === "manifest" && flag === "--check") {
  if (!(await manifestIsCurrent(root))) {
    console.error("fresh.gen.ts is stale: run `deno task manifest` and commit it");
    Deno.exit(1);
  }
} else if (command === "manifest") {
  console.log((await writeManifest(root)) ? "fresh.gen.ts written" : "fresh.gen.ts is current");
} else if (command === "build") {
  if (flag !== "--if-stale" || buildIsStale(root, config.buildInputs)) await build();
} else if (command === "watch") {
  await watch();
} else {
  console.error("usage: deno run -A dev.ts manifest [--check] | build [--if-stale] | watch");
  Deno.exit(2);
}
