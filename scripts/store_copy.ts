/**
 * Copies a whole store to another while no instance runs (lib/ops/store_copy_task.ts):
 *
 *   deno task store:copy --from ./data/switchyard.kv --to postgres://user:password@db/switchyard
 *
 * The target must be empty unless `--force` (which empties it first); the counts of every key
 * family are compared and printed. See docs/operations.md, "Moving a store".
 */
import { runStoreCopy } from "../lib/ops/store_copy_task.ts";

const code = await runStoreCopy(Deno.args, Deno.env.toObject(), {
  out: (line) => console.log(line),
  error: (line) => console.error(line),
});
Deno.exit(code);
