/**
 * Imported first by `start.ts`: when the console's assets are missing or older than their
 * inputs, builds them in a child process (`dev.ts build`) before the server's modules run, so
 * nothing of the build stays in the server's memory. Everything here is synchronous: a module's
 * top-level `await` would not hold back the modules imported after it.
 */
import config from "./fresh.config.ts";
import { buildIsStale } from "./lib/fresh/stale.ts";

const root = decodeURIComponent(new URL("./", import.meta.url).pathname).replace(/\/$/, "");
const manifestText = () => Deno.readTextFileSync(`${root}/fresh.gen.ts`);

if (buildIsStale(root, config.buildInputs)) {
  const manifestBefore = manifestText();
  const build = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${root}/dev.ts`, "build"],
    stdout: "inherit",
    stderr: "inherit",
  }).outputSync();
  if (!build.success) Deno.exit(1);
  if (manifestText() !== manifestBefore) {
    console.warn("fresh.gen.ts changed while building: start again to serve the new routes");
  }
}
