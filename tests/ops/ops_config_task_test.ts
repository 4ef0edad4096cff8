/** `deno task config:export` / `config:import` on KV files. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { listAuditEntries } from "../../lib/store/telemetry/audit.ts";
import { replaceGroupRoutes } from "../../lib/store/config/routes.ts";
import { putGroup } from "../../lib/store/config/groups.ts";
import { ALPHA, route } from "../_admin_helpers.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

async function run(script: string, args: string[], kvPath: string) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(ROOT, "scripts", script), ...args],
    env: { KV_PATH: kvPath },
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
}

Deno.test("config tasks: export one KV file and import it into another", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const source = join(dir, "source.kv");
    const target = join(dir, "target.kv");
    const kv = await Deno.openKv(source);
    await putGroup(kv, ALPHA);
    assert.ok((await replaceGroupRoutes(kv, "alpha", [route("alpha", "r1")])).ok);
    kv.close();

    const file = join(dir, "backup.json");
    const exported = await run("config_export.ts", [`--out=${file}`], source);
    assert.equal(exported.code, 0, exported.stderr);
    const document = JSON.parse(await Deno.readTextFile(file));
    assert.deepEqual(document.groups, [ALPHA]);

    const dry = await run("config_import.ts", [file, "--dry-run"], target);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /would create alpha: 1 routes/);
    const imported = await run("config_import.ts", [file], target);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /^create alpha: 1 routes, 0 fragments, 1 allowed targets/);

    const again = await run("config_export.ts", [], target);
    assert.equal(again.code, 0, again.stderr);
    const { exportedAt: _a, ...copy } = JSON.parse(again.stdout);
    const { exportedAt: _b, ...original } = document;
    assert.deepEqual(copy, { ...original, allowedTargets: copy.allowedTargets });
    assert.deepEqual(copy.routes, original.routes);

    const check = await Deno.openKv(target);
    const audit = await listAuditEntries(check, {});
    check.close();
    assert.deepEqual(audit.map((entry) => [entry.action, entry.actor.login]).sort(), [
      ["config.export", "config:export task"],
      ["config.import", "config:import task"],
    ]);
    const sourceKv = await Deno.openKv(source);
    const exports = await listAuditEntries(sourceKv, {});
    sourceKv.close();
    assert.deepEqual(exports.map((entry) => [entry.action, entry.detail]), [
      ["config.export", { secrets: false, groups: 1 }],
    ], "the export of the source is audited in the source");

    await Deno.writeTextFile(file, JSON.stringify({ ...document, version: 9 }));
    const refused = await run("config_import.ts", [file], target);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /import refused: version/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
