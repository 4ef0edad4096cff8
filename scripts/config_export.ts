/**
 * Writes the configuration document of the store KV_PATH names.
 *
 *   deno task config:export [--secrets] [--out=backup.json]
 *
 * Without `--out` the document goes to standard output. `--secrets` includes the groups'
 * webhook secrets in plain text: keep such a file as safe as the store itself. Every export is
 * audited (`config.export`, by the task).
 */
import { exportConfigAudited } from "../lib/ops/config_export.ts";
import { EXPORT_TASK_ACTOR, parseTaskArgs, withConfiguredStore } from "../lib/ops/config_task.ts";

const args = parseTaskArgs(Deno.args);
const document = await withConfiguredStore((kv, encryptionKey) =>
  exportConfigAudited(kv, EXPORT_TASK_ACTOR, { secrets: args.flags.has("secrets"), encryptionKey })
);
const text = JSON.stringify(document, null, 2) + "\n";
const out = args.options.get("out");
if (out) {
  await Deno.writeTextFile(out, text, { mode: 0o600 });
  console.error(
    `wrote ${document.groups.length} groups and ${document.routes.length} routes to ${out}`,
  );
} else {
  await Deno.stdout.write(new TextEncoder().encode(text));
}
