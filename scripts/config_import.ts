/**
 * Imports a configuration document into the store KV_PATH names.
 *
 *   deno task config:import backup.json [--dry-run]
 *
 * The document is validated as a whole first; nothing is written when any part is refused.
 * Each group is then written in one atomic operation, audited as done by the task. Groups not
 * in the document stay as they are. `--dry-run` prints the plan without writing.
 */
import { importConfig } from "../lib/ops/config_import.ts";
import { parseTaskArgs, TASK_ACTOR, withConfiguredStore } from "../lib/ops/config_task.ts";

const args = parseTaskArgs(Deno.args);
const [path] = args.rest;
if (!path) {
  console.error("usage: deno task config:import <file.json> [--dry-run]");
  Deno.exit(2);
}
let document: unknown;
try {
  document = JSON.parse(await Deno.readTextFile(path));
} catch (error) {
  console.error(`cannot read ${path}: ${error instanceof Error ? error.message : error}`);
  Deno.exit(2);
}
const outcome = await withConfiguredStore((kv, encryptionKey) =>
  importConfig(kv, document, {
    actor: TASK_ACTOR,
    dryRun: args.flags.has("dry-run"),
    encryptionKey,
  })
);
if (!outcome.ok) {
  console.error(`import refused: ${outcome.error}`);
  Deno.exit(1);
}
for (const group of outcome.groups) {
  console.log(
    `${outcome.dryRun ? "would " : ""}${group.action} ${group.id}: ${group.routes} routes, ` +
      `${group.fragments} fragments, ${group.allowedTargets} allowed targets` +
      (group.secret ? ", webhook secret" : ""),
  );
}
