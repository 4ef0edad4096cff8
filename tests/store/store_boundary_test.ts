/**
 * All KV access goes through `lib/store`: no source file outside it calls a KV method, opens
 * KV, starts an atomic operation or builds a key (imports the key builders). Tests and
 * benchmarks may set up state directly.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Folders scanned, and the top-level modules (`main.ts`, `dev.ts` …) beside them. */
const SCANNED = ["lib", "routes", "islands", "components", "scripts"];
const ALLOWED = "lib/store/";
const SOURCE = /\.(ts|tsx)$/;

const KV_ACCESS = [
  /kv\.(get|getMany|set|delete|list|atomic|watch|enqueue|listenQueue|sum|close)/,
  /Deno\.openKv/,
  /\.(getMany|atomic|listenQueue)\(/,
  /store\/keys\.ts/,
];

/** The lines of `source` that reach KV directly, as `line: text`. */
function kvAccessLines(source: string): string[] {
  return source.split("\n").flatMap((text, index) =>
    KV_ACCESS.some((pattern) => pattern.test(text)) ? [`${index + 1}: ${text.trim()}`] : []
  );
}

async function* sourceFiles(folder: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(ROOT, folder))) {
    const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory && (folder !== "" || SCANNED.includes(entry.name))) {
      yield* sourceFiles(path);
    } else if (entry.isFile && SOURCE.test(entry.name)) {
      yield path;
    }
  }
}

Deno.test("no source file outside lib/store reaches KV or builds a KV key", async () => {
  const offenders: string[] = [];
  let scanned = 0;
  for await (const path of sourceFiles("")) {
    if (path.startsWith(ALLOWED)) continue;
    scanned++;
    const lines = kvAccessLines(await Deno.readTextFile(join(ROOT, path)));
    offenders.push(...lines.map((line) => `${path}:${line}`));
  }
  assert.ok(scanned > 100, `only ${scanned} files were scanned`);
  assert.deepEqual(offenders, [], `KV reached outside lib/store:\n${offenders.join("\n")}`);
});

Deno.test("the boundary scan sees KV calls under any receiver and ignores look-alikes", () => {
  const source = [
    "const entry = await kv.get(key);",
    "for await (const e of deps.kv.list({ prefix })) {}",
    "const store = await Deno.openKv(path);",
    "await store.atomic().set(key, 1).commit();",
    "db.listenQueue(handle);",
    'import { auditKey } from "../store/keys.ts";',
    "const map = new Map(); map.get(key); map.set(key, 1);",
    "controller.enqueue(chunk);",
    "import { getManyInBatches } from './batch.ts';",
  ].join("\n");
  assert.deepEqual(kvAccessLines(source).map((line) => Number(line.split(":")[0])), [
    1,
    2,
    3,
    4,
    5,
    6,
  ]);
});
