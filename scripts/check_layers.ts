/**
 * Layer check: fails when a file imports a layer it may not depend on, or when modules (the
 * folders under `lib/`) import each other in a cycle.
 *
 *   deno run -A scripts/check_layers.ts
 *
 * Every source file belongs to one layer (the longest matching prefix in `LAYER_OF`), and
 * `MAY_IMPORT` lists, for each layer, the layers it may import besides itself. Services come in
 * two tiers: core (ingest, delivery, auth, installations, notify) and, above it, the surfaces people
 * and chats use (admin, chatops, actions, ops); a core service never imports a surface. Within
 * a layer the modules may import each other, but never in a cycle. This table is the one place
 * where the allowed directions are written; docs/architecture.md explains it.
 */
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Layers from the bottom up. */
type Layer =
  | "base"
  | "framework"
  | "config"
  | "rules"
  | "format"
  | "template"
  | "signature"
  | "platform"
  | "store"
  | "clients"
  | "providers"
  | "console"
  | "core"
  | "surfaces"
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
  ["lib/same_json.ts", "base"],
  ["lib/target_ref.ts", "base"],
  ["lib/no_store.ts", "base"],
  ["lib/log.ts", "base"],
  ["lib/http_client.ts", "base"],
  ["lib/fresh/", "framework"],
  ["lib/request_body.ts", "base"],
  ["lib/http_body.ts", "framework"],
  ["lib/config.ts", "config"],
  ["lib/jsonpath/", "rules"],
  ["lib/routing/", "rules"],
  ["lib/model/", "rules"],
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
  ["lib/console/", "console"],
  ["lib/ingest/", "core"],
  ["lib/delivery/", "core"],
  ["lib/auth/", "core"],
  ["lib/installations/", "core"],
  ["lib/notify/", "core"],
  ["lib/admin/", "surfaces"],
  ["lib/chatops/", "surfaces"],
  ["lib/actions/", "surfaces"],
  ["lib/ops/", "surfaces"],
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
  "rules",
  "format",
  "signature",
  "platform",
];
const MIDDLE: Layer[] = [...LEAVES, "template", "runtime", "store", "clients", "providers"];
const SERVICES: Layer[] = [...MIDDLE, "core", "surfaces"];

/** The layers each layer may import, besides its own. */
const MAY_IMPORT: Readonly<Record<Layer, readonly Layer[]>> = {
  base: [],
  framework: LOW,
  config: LOW,
  rules: LOW,
  format: LOW,
  template: [...LOW, "rules", "format"],
  signature: LOW,
  platform: LOW,
  store: [...LOW, "config"],
  clients: [...LOW, "config", "platform", "format"],
  providers: [...LOW, "signature", "format"],
  runtime: LEAVES,
  console: [...LOW, "rules", "format", "template"],
  core: MIDDLE,
  surfaces: [...MIDDLE, "core"],
  app: [...SERVICES, "console", "ui"],
  ui: [...SERVICES, "console", "app"],
  testing: [...SERVICES, "console", "app", "ui"],
  tests: [...SERVICES, "console", "app", "ui", "tools", "testing"],
  bench: [...SERVICES, "console", "app", "ui", "testing"],
  tools: [...SERVICES, "console", "app", "ui"],
};

/** Which files each file imports (paths relative to the project root). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

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

/** The module a path belongs to: its folder under `lib/` (`lib/auth`), or null elsewhere. */
export function moduleOf(path: string): string | null {
  const parts = path.split("/");
  return parts[0] === "lib" && parts.length > 2 ? `lib/${parts[1]}` : null;
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

/** Whether the layer table lets `file` import `target`. */
function allowed(file: string, target: string): boolean {
  const layer = layerOf(file);
  const targetLayer = layerOf(target);
  return !layer || !targetLayer || layer === targetLayer || MAY_IMPORT[layer].includes(targetLayer);
}

/** Imports against `MAY_IMPORT`, as readable lines. */
function layerProblems(graph: ImportGraph): string[] {
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      if (!allowed(file, target)) {
        problems.push(`${file} (${layerOf(file)}) imports ${target} (${layerOf(target)})`);
      }
    }
  }
  return problems;
}

/**
 * For each module, the other modules it imports, each with one importing file pair. Imports
 * against the layer table are left out: they are reported as such, and a cycle through one
 * (a core service importing a surface) goes once that import does.
 */
function moduleEdges(graph: ImportGraph): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, targets] of graph) {
    const from = moduleOf(file);
    if (!from) continue;
    for (const target of [...targets].sort()) {
      const to = moduleOf(target);
      if (!to || to === from || !allowed(file, target)) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      const example = `${file} → ${target}`;
      const known = out.get(to);
      if (!known || example < known) out.set(to, example);
      edges.set(from, out);
    }
  }
  return edges;
}

/** The shortest path of modules from `start` back to itself, or null when there is none. */
function shortestCycle(edges: Map<string, Map<string, string>>, start: string): string[] | null {
  const cameFrom = new Map<string, string>();
  let frontier = [start];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const to of [...(edges.get(node)?.keys() ?? [])].sort()) {
        if (to === start) {
          const path = [node];
          while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
          return [...path, start];
        }
        if (cameFrom.has(to)) continue;
        cameFrom.set(to, node);
        next.push(to);
      }
    }
    frontier = next;
  }
  return null;
}

/**
 * Import cycles between modules, one line each: the modules around the shortest cycle through
 * each module that is on one, then one import that makes each step.
 */
function cycleProblems(graph: ImportGraph): string[] {
  const edges = moduleEdges(graph);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const start of [...edges.keys()].sort()) {
    const cycle = shortestCycle(edges, start);
    if (!cycle) continue;
    const members = cycle.slice(0, -1);
    const first = members.indexOf([...members].sort()[0]);
    const rotated = [...members.slice(first), ...members.slice(0, first)];
    const key = rotated.join(" ");
    if (seen.has(key)) continue;
    seen.add(key);
    const path = [...rotated, rotated[0]];
    const steps = path.slice(1).map((to, index) => edges.get(path[index])!.get(to)!);
    problems.push(`cycle ${path.join(" → ")} (${steps.join("; ")})`);
  }
  return problems;
}

/**
 * Everything wrong with an import graph, as sorted readable lines: imports against the layer
 * table (a core service importing a surface among them) and import cycles between modules.
 */
export function graphProblems(graph: ImportGraph): string[] {
  return [...new Set([...layerProblems(graph), ...cycleProblems(graph)])].sort();
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
  return relative(".", normalize(join(dirname(from), specifier)));
}

/** The project's import graph: each source file under `root` and the files it imports. */
export async function importGraph(root: string): Promise<ImportGraph> {
  const graph = new Map<string, string[]>();
  for await (const file of sourceFiles(root)) {
    const source = await Deno.readTextFile(join(root, file));
    const targets = importsOf(source).map((specifier) => resolveSpecifier(file, specifier));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

if (import.meta.main) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const problems = graphProblems(await importGraph(root));
  if (problems.length > 0) {
    console.error(`layer check: ${problems.length} problem(s)`);
    for (const line of problems) console.error(`  ${line}`);
    Deno.exit(1);
  }
  console.log("layer check: ok");
}
