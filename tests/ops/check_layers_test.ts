/**
 * The layer check (`scripts/check_layers.ts`, run by `deno task check`): its graph analysis on
 * small fake import graphs (an import against the table, a core service importing a surface, a
 * cycle between modules), and its reading of imports on a small project in a temporary folder.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import {
  graphProblems,
  type ImportGraph,
  importGraph,
  layerOf,
  moduleOf,
} from "../../scripts/check_layers.ts";

/** An import graph from `file → imported files` pairs. */
function graphOf(edges: Record<string, string[]>): ImportGraph {
  return new Map(Object.entries(edges));
}

/** The import graph of a project made of `files` (path → source). */
async function graphOfProject(files: Record<string, string>): Promise<ImportGraph> {
  const root = await Deno.makeTempDir();
  try {
    for (const [path, source] of Object.entries(files)) {
      await Deno.mkdir(join(root, dirname(path)), { recursive: true });
      await Deno.writeTextFile(join(root, path), source);
    }
    return await importGraph(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("layer check: a clean graph passes (downward imports, a surface using core, a chain of modules)", () => {
  const problems = graphProblems(graphOf({
    "lib/discord/rate_limit.ts": ["lib/platform/even_pace.ts"],
    "lib/auth/bearer.ts": ["lib/store/auth/tokens.ts", "lib/fresh/mod.ts"],
    "lib/installations/binding.ts": ["lib/auth/principal.ts"],
    "lib/ingest/installation.ts": ["lib/installations/binding.ts"],
    "lib/chatops/act.ts": ["lib/auth/github_caller.ts", "lib/chatops/reply.ts"],
    "lib/admin/openapi.ts": ["lib/chatops/telegram/rich_header.ts"],
    "lib/console/route_draft.ts": ["lib/routing/compile.ts", "lib/same_json.ts"],
    "routes/api/close.ts": ["lib/store/auth/tokens.ts", "lib/admin/openapi.ts"],
    "islands/RouteEditor.tsx": ["lib/console/route_draft.ts"],
  }));
  assert.deepEqual(problems, []);
});

Deno.test("layer check: an import against the table is reported with both layers", () => {
  const problems = graphProblems(graphOf({
    "lib/store/auth/links.ts": ["lib/auth/oauth.ts", "lib/encoding.ts"],
    "lib/console/route_draft.ts": ["lib/admin/groups.ts"],
  }));
  assert.deepEqual(problems, [
    "lib/console/route_draft.ts (console) imports lib/admin/groups.ts (surfaces)",
    "lib/store/auth/links.ts (store) imports lib/auth/oauth.ts (core)",
  ]);
});

Deno.test("layer check: a core service importing a surface fails, and the cycle through it is not reported twice", () => {
  const problems = graphProblems(graphOf({
    "lib/auth/chat_link_confirm.ts": ["lib/chatops/discord/link_confirmation.ts"],
    "lib/chatops/discord/commands.ts": ["lib/auth/chat_link.ts"],
  }));
  assert.deepEqual(problems, [
    "lib/auth/chat_link_confirm.ts (core) imports lib/chatops/discord/link_confirmation.ts (surfaces)",
  ]);
});

Deno.test("layer check: a cycle between modules of one layer fails, naming its path and an import per step", () => {
  const problems = graphProblems(graphOf({
    "lib/admin/openapi.ts": ["lib/chatops/telegram/rich_header.ts"],
    "lib/chatops/subscribe.ts": ["lib/ops/claims.ts"],
    "lib/ops/claims.ts": ["lib/admin/groups.ts"],
    "lib/ops/metrics.ts": ["lib/ingest/handle.ts"],
  }));
  assert.deepEqual(problems, [
    "cycle lib/admin → lib/chatops → lib/ops → lib/admin (" +
    "lib/admin/openapi.ts → lib/chatops/telegram/rich_header.ts; " +
    "lib/chatops/subscribe.ts → lib/ops/claims.ts; " +
    "lib/ops/claims.ts → lib/admin/groups.ts)",
  ]);
});

Deno.test("layer check: two core services importing each other fail; imports inside one module do not", () => {
  const problems = graphProblems(graphOf({
    "lib/auth/principal.ts": ["lib/installations/binding.ts", "lib/auth/session.ts"],
    "lib/auth/session.ts": ["lib/auth/principal.ts"],
    "lib/installations/binding.ts": ["lib/auth/principal.ts"],
  }));
  assert.deepEqual(problems, [
    "cycle lib/auth → lib/installations → lib/auth (" +
    "lib/auth/principal.ts → lib/installations/binding.ts; " +
    "lib/installations/binding.ts → lib/auth/principal.ts)",
  ]);
});

Deno.test("layer check: type-only, multi-line, re-exported, dynamic and @/ imports are read, relative to the project", async () => {
  const graph = await graphOfProject({
    "lib/discord/rate_limit.ts": 'import type {\n  EvenPace,\n} from "../delivery/even_pace.ts";\n',
    "lib/telegram/pacer.ts": 'export { EvenPace } from "../delivery/even_pace.ts";\n',
    "lib/model/schema.ts": 'const admin = await import("../admin/schemas.ts");\n',
    "routes/api/close.ts":
      'import { getToken } from "@/lib/store/auth/tokens.ts";\nimport "npm:zod";\n',
  });
  assert.deepEqual(Object.fromEntries(graph), {
    "lib/discord/rate_limit.ts": ["lib/delivery/even_pace.ts"],
    "lib/telegram/pacer.ts": ["lib/delivery/even_pace.ts"],
    "lib/model/schema.ts": ["lib/admin/schemas.ts"],
    "routes/api/close.ts": ["lib/store/auth/tokens.ts"],
  });
});

Deno.test("layer check: the longest matching prefix decides a file's layer; modules are lib/ folders", () => {
  assert.equal(layerOf("lib/at_rest.ts"), "base");
  assert.equal(layerOf("lib/http_body.ts"), "framework");
  assert.equal(layerOf("lib/store/auth/links.ts"), "store");
  assert.equal(layerOf("lib/store/backend/types.ts"), "base");
  assert.equal(layerOf("lib/delivery/lanes.ts"), "core");
  assert.equal(layerOf("lib/chatops/act.ts"), "surfaces");
  assert.equal(layerOf("lib/console/route_draft.ts"), "console");
  assert.equal(layerOf("lib/app.ts"), "app");
  assert.equal(layerOf("elsewhere/x.ts"), null);
  assert.equal(moduleOf("lib/chatops/discord/commands.ts"), "lib/chatops");
  assert.equal(moduleOf("lib/app.ts"), null);
  assert.equal(moduleOf("routes/api/close.ts"), null);
});
