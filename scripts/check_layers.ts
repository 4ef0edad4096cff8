/**
 * Layer check: fails when a module imports a layer it may not depend on.
 *
 *   deno run -A scripts/check_layers.ts
 *
 * Every source file belongs to one layer (the first matching prefix in `LAYER_OF`), and
 * `MAY_IMPORT` lists, for each layer, the layers it may import besides itself. This table is
 * the one place where the allowed directions are written; docs/architecture.md explains it.
 */
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Layers from the bottom up. */
type Layer =
  | "base"
  | "framework"
  | "config"
  | "filter"
  | "format"
  | "template"
  | "signature"
  | "platform"
  | "store"
  | "clients"
  | "providers"
  | "services"
  | "runtime"
  | "app"
  | "ui"
  | "tests"
  | "testing"
  | "bench"
  | "tools";

/** Which layer a file is in: the longest matching path prefix wins. */
const LAYER_OF: ReadonlyArray<readonly [prefix: string, layer: Layer]> = [
  ["lib/encoding.ts", "base"],
  ["lib/crypto.ts", "base"],
  ["lib/at_rest.ts", "base"],
  ["lib/types.ts", "base"],
  ["lib/limits.ts", "base"],
  ["lib/ids.ts", "base"],
  ["lib/ulid.ts", "base"],
  ["lib/file_path.ts", "base"],
  ["lib/own_value.ts", "base"],
  ["lib/target_ref.ts", "base"],
  ["lib/no_store.ts", "base"],
  ["lib/log.ts", "base"],
  ["lib/http_client.ts", "base"],
  ["lib/fresh/", "framework"],
  ["lib/request_body.ts", "base"],
  ["lib/http_body.ts", "framework"],
  ["lib/config.ts", "config"],
  ["lib/filter/", "filter"],
  ["lib/format/", "format"],
  ["lib/template/", "template"],
  ["lib/signature/", "signature"],
  ["lib/platform/", "platform"],
  ["lib/store/backend/types.ts", "base"],
  ["lib/store/", "store"],
  ["lib/discord/", "clients"],
  ["lib/telegram/", "clients"],
  ["lib/github/", "clients"],
  ["lib/providers/", "providers"],
  ["lib/ingest/", "services"],
  ["lib/delivery/", "services"],
  ["lib/auth/", "services"],
  ["lib/actions/", "services"],
  ["lib/installations/", "services"],
  ["lib/admin/", "services"],
  ["lib/chatops/", "services"],
  ["lib/ops/", "services"],
  ["lib/state.ts", "runtime"],
  ["lib/http_guards.ts", "runtime"],
  ["lib/ingress_deps.ts", "app"],
  ["lib/queue_handlers.ts", "app"],
  ["lib/", "app"],
  ["main.ts", "app"],
  ["fresh.gen.ts", "app"],
  ["fresh.config.ts", "tools"],
  ["dev.ts", "tools"],
  ["start.ts", "tools"],
  ["start_build.ts", "tools"],
  ["scripts/", "tools"],
  ["routes/", "ui"],
  ["islands/", "ui"],
  ["components/", "ui"],
  ["tests/", "tests"],
  ["testing/", "testing"],
  ["bench/", "bench"],
];

const LOW: Layer[] = ["base"];
const LEAVES: Layer[] = [
  ...LOW,
  "framework",
  "config",
  "filter",
  "format",
  "signature",
  "platform",
];
const MIDDLE: Layer[] = [...LEAVES, "template", "runtime", "store", "clients", "providers"];

/** The layers each layer may import, besides its own. */
const MAY_IMPORT: Readonly<Record<Layer, readonly Layer[]>> = {
  base: [],
  framework: LOW,
  config: LOW,
  filter: LOW,
  format: LOW,
  template: [...LOW, "filter", "format"],
  signature: LOW,
  platform: LOW,
  store: [...LOW, "config"],
  clients: [...LOW, "config", "platform", "format"],
  providers: [...LOW, "signature", "format"],
  runtime: LEAVES,
  services: [...LEAVES, "template", "runtime", "store", "clients", "providers"],
  app: [...MIDDLE, "services", "ui"],
  ui: [...MIDDLE, "services", "app"],
  testing: [...MIDDLE, "services", "app", "ui"],
  tests: [...MIDDLE, "services", "app", "ui", "tools", "testing"],
  bench: [...MIDDLE, "services", "app", "ui", "testing"],
  tools: [...MIDDLE, "services", "app", "ui"],
};

const SOURCE = /\.(ts|tsx)$/;
const SKIP = new Set(["node_modules", "_fresh", ".tools", "data", "coverage", ".git"]);
const IMPORT =
  /(?:^|[\s;])(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;

/** The layer of a path relative to the project root, or null when it is outside every layer. */
export function layerOf(path: string): Layer | null {
  let best: readonly [string, Layer] | null = null;
  for (const entry of LAYER_OF) {
    if (path.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best ? best[1] : null;
}

/** The relative import specifiers of a module's source. */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier && (specifier.startsWith(".") || specifier.startsWith("@/"))) {
      found.push(specifier);
    }
  }
  return found;
}

async function* sourceFiles(root: string, folder = ""): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(root, folder))) {
    if (SKIP.has(entry.name)) continue;
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory) yield* sourceFiles(root, path);
    else if (entry.isFile && SOURCE.test(entry.name)) yield path;
  }
}

function resolveSpecifier(from: string, specifier: string): string {
  if (specifier.startsWith("@/")) return normalize(specifier.slice(2));
  return normalize(join(dirname(from), specifier));
}

/** Every forbidden import in the project, as readable lines. */
export async function layerViolations(root: string): Promise<string[]> {
  const problems: string[] = [];
  for await (const file of sourceFiles(root)) {
    const layer = layerOf(file);
    if (!layer) continue;
    const source = await Deno.readTextFile(join(root, file));
    for (const specifier of importsOf(source)) {
      const target = relative(".", resolveSpecifier(file, specifier));
      const targetLayer = layerOf(target);
      if (!targetLayer || targetLayer === layer) continue;
      if (!MAY_IMPORT[layer].includes(targetLayer)) {
        problems.push(`${file} (${layer}) imports ${target} (${targetLayer})`);
      }
    }
  }
  return [...new Set(problems)].sort();
}

if (import.meta.main) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const problems = await layerViolations(root);
  if (problems.length > 0) {
    console.error(`layer check: ${problems.length} forbidden import(s)`);
    for (const line of problems) console.error(`  ${line}`);
    Deno.exit(1);
  }
  console.log("layer check: ok");
}
