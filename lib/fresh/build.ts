/**
 * The build: islands bundled with esbuild (one shared Preact chunk, minified,
 * content-hashed names) and the stylesheet compiled by the Tailwind CSS CLI,
 * then an asset map the server reads at start-up. Only `dev.ts` and tests import
 * this.
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { toHex } from "../encoding.ts";
import { ASSET_MAP_FILE, type Assets, BUILD_DIR } from "./assets.ts";
import { ISLANDS_DIR, listIslands } from "./islands.ts";

/** What the build reads. */
interface BuildConfig {
  /** The project root: islands are listed below it, the build folder is written in it. */
  root: string;
  /** Tailwind input stylesheet relative to the root. */
  stylesheet: string;
}

/** The hydration runtime, part of this layer rather than of the project. */
const CLIENT_ENTRY = fileURLToPath(new URL("./client.ts", import.meta.url));

async function contentHash(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))).slice(0, 12);
}

/** The esbuild entry name of an island; the prefix keeps islands apart from the runtime. */
const islandEntry = (name: string) => `island-${name}`;
const CLIENT = "client";

/** Bundles the runtime and every island; returns their public URLs. */
async function bundleScripts(
  config: BuildConfig,
  outdir: string,
): Promise<Pick<Assets, "client" | "islands">> {
  const islands = await listIslands(config.root);
  const entryPoints: Record<string, string> = { [CLIENT]: CLIENT_ENTRY };
  for (const island of islands) {
    entryPoints[islandEntry(island.name)] = join(config.root, ISLANDS_DIR, island.path);
  }
  // Loaded here, not at the top: checking whether the build is stale must stay quick.
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022"],
    minify: true,
    jsx: "automatic",
    jsxImportSource: "preact",
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    metafile: true,
    logLevel: "warning",
    absWorkingDir: config.root,
  });
  await esbuild.stop();
  const urlByEntry = new Map<string, string>();
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (!output.entryPoint) continue;
    const entry = Object.entries(entryPoints).find(([, path]) =>
      relative(config.root, path) === output.entryPoint
    )?.[0];
    if (entry) urlByEntry.set(entry, "/" + file);
  }
  const url = (entry: string) => {
    const found = urlByEntry.get(entry);
    if (!found) throw new Error(`the build produced no bundle for ${entry}`);
    return found;
  };
  return {
    client: url(CLIENT),
    islands: Object.fromEntries(islands.map(({ name }) => [name, url(islandEntry(name))])),
  };
}

async function compileStylesheet(config: BuildConfig, outdir: string): Promise<string> {
  const temp = join(outdir, "styles.tmp.css");
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "npm:@tailwindcss/cli@4.3.3",
      "-i",
      join(config.root, config.stylesheet),
      "-o",
      temp,
      "--minify",
    ],
    cwd: config.root,
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stderr } = await command.output();
  if (code !== 0) throw new Error(`tailwind failed: ${new TextDecoder().decode(stderr)}`);
  const bytes = await Deno.readFile(temp);
  const name = `styles-${await contentHash(bytes)}.css`;
  await Deno.rename(temp, join(outdir, name));
  return `/${BUILD_DIR}/${name}`;
}

/** Builds all assets into the build folder, replacing what was there. */
export async function buildAssets(config: BuildConfig): Promise<Assets> {
  const outdir = join(config.root, BUILD_DIR);
  await Deno.remove(outdir, { recursive: true }).catch(() => {});
  await Deno.mkdir(outdir, { recursive: true });
  const [scripts, stylesheet] = await Promise.all([
    bundleScripts(config, outdir),
    compileStylesheet(config, outdir),
  ]);
  const assets: Assets = { ...scripts, styles: { "styles.css": stylesheet } };
  await Deno.writeTextFile(join(outdir, ASSET_MAP_FILE), JSON.stringify(assets, null, 2));
  return assets;
}
