/**
 * The layer check (`scripts/check_layers.ts`, run by `deno task check`) on small projects in a
 * temporary folder: an import against the allowed directions is reported, an allowed one is not.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { layerOf, layerViolations } from "../scripts/check_layers.ts";

/** The violations of a project made of `files` (path → source). */
async function violationsOf(files: Record<string, string>): Promise<string[]> {
  const root = await Deno.makeTempDir();
  try {
    for (const [path, source] of Object.entries(files)) {
      await Deno.mkdir(join(root, dirname(path)), { recursive: true });
      await Deno.writeTextFile(join(root, path), source);
    }
    return await layerViolations(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("layer check: a store module importing auth is reported, one importing base is not", async () => {
  const problems = await violationsOf({
    "lib/encoding.ts": "export const utf8 = 1;\n",
    "lib/auth/oauth.ts": "export const authorizeUrl = 2;\n",
    "lib/store/links.ts": 'import { authorizeUrl } from "../auth/oauth.ts";\n',
    "lib/store/tokens.ts": 'import { utf8 } from "../encoding.ts";\n',
  });
  assert.deepEqual(problems, ["lib/store/links.ts (store) imports lib/auth/oauth.ts (services)"]);
});

Deno.test("layer check: type-only, multi-line, re-exported and dynamic imports count too", async () => {
  const problems = await violationsOf({
    "lib/delivery/even_pace.ts": "export class EvenPace {}\n",
    "lib/discord/rate_limit.ts": 'import type {\n  EvenPace,\n} from "../delivery/even_pace.ts";\n',
    "lib/telegram/pacer.ts": 'export { EvenPace } from "../delivery/even_pace.ts";\n',
    "lib/filter/schema.ts": 'const admin = await import("../admin/schemas.ts");\n',
    "lib/admin/schemas.ts": "export const idSchema = 1;\n",
  });
  assert.deepEqual(problems, [
    "lib/discord/rate_limit.ts (clients) imports lib/delivery/even_pace.ts (services)",
    "lib/filter/schema.ts (filter) imports lib/admin/schemas.ts (services)",
    "lib/telegram/pacer.ts (clients) imports lib/delivery/even_pace.ts (services)",
  ]);
});

Deno.test("layer check: downward imports pass (clients → platform, services → store, routes → lib)", async () => {
  const problems = await violationsOf({
    "lib/platform/even_pace.ts": "export class EvenPace {}\n",
    "lib/discord/rate_limit.ts": 'import { EvenPace } from "../platform/even_pace.ts";\n',
    "lib/store/tokens.ts": "export const getToken = 1;\n",
    "lib/auth/bearer.ts": 'import { getToken } from "../store/tokens.ts";\n',
    "routes/api/close.ts": 'import { getToken } from "../../lib/store/tokens.ts";\n',
  });
  assert.deepEqual(problems, []);
});

Deno.test("layer check: the longest matching prefix decides a file's layer", () => {
  assert.equal(layerOf("lib/at_rest.ts"), "base");
  assert.equal(layerOf("lib/http_body.ts"), "framework");
  assert.equal(layerOf("lib/store/links.ts"), "store");
  assert.equal(layerOf("lib/app.ts"), "app");
  assert.equal(layerOf("elsewhere/x.ts"), null);
});
