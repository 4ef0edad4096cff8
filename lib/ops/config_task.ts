/**
 * The command-line side of configuration export and import (`deno task config:export`,
 * `deno task config:import`): arguments, settings and the store, for the scripts in
 * `scripts/`. They work on the store the settings name (KV_PATH), so run them with the same
 * settings as the server; the export and the import are audited as done by the task.
 */
import type { Kv } from "../store/backend/types.ts";
import { loadConfigOrExit } from "../config.ts";
import type { AuditActor } from "../store/telemetry/audit.ts";
import { closeStore, openStore } from "../store/kv.ts";

/** The actor the audit entries of a task import name. */
export const TASK_ACTOR: AuditActor = { userId: "task", login: "config:import task" };

/** The actor the audit entries of a task export name. */
export const EXPORT_TASK_ACTOR: AuditActor = { userId: "task", login: "config:export task" };

/** Parsed task arguments: flags (`--secrets`) and the rest in order. */
interface TaskArgs {
  flags: Set<string>;
  options: Map<string, string>;
  rest: string[];
}

/** Splits `args` into `--flag`, `--name=value` and plain arguments. */
export function parseTaskArgs(args: readonly string[]): TaskArgs {
  const parsed: TaskArgs = { flags: new Set(), options: new Map(), rest: [] };
  for (const arg of args) {
    const option = /^--([\w-]+)=(.*)$/.exec(arg);
    if (option) parsed.options.set(option[1], option[2]);
    else if (arg.startsWith("--")) parsed.flags.add(arg.slice(2));
    else parsed.rest.push(arg);
  }
  return parsed;
}

/** Runs `work` with the configured store and TOKEN_ENCRYPTION_KEY; exits 1 on a bad setting. */
export async function withConfiguredStore<T>(
  work: (kv: Kv, encryptionKey: string | undefined) => Promise<T>,
): Promise<T> {
  const config = loadConfigOrExit();
  const kv = await openStore(config);
  try {
    return await work(kv, config.tokenEncryptionKey);
  } finally {
    await closeStore(kv);
  }
}
