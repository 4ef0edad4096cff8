/**
 * The runtime flags `deno task start` runs the server with (its `--v8-flags=…`), read from
 * deno.json, so the benchmarks measure the product's settings and not Deno's defaults.
 */

const DENO_JSON = new URL("../deno.json", import.meta.url);

/** The `--v8-flags=…` argument of the start task's server command, or none. */
export function startV8Flags(): string[] {
  const config = JSON.parse(Deno.readTextFileSync(DENO_JSON)) as { tasks: { start: string } };
  return v8FlagsOf(config.tasks.start);
}

/** The `--v8-flags=…` arguments of a task's command that runs the server (`start.ts` or `main.ts`). */
export function v8FlagsOf(task: string): string[] {
  const command = task.split("&&").find((part) => /\b(start|main)\.ts\b/.test(part)) ?? "";
  return command.trim().split(/\s+/).filter((arg) => arg.startsWith("--v8-flags="));
}

const APPLIED = "SWITCHYARD_BENCH_START_FLAGS";

/**
 * Runs `script` again in a child process with the start task's flags, unless this process is
 * that child; the child's output is this process's. Resolves with the child's exit code, or
 * null when this process already runs with the flags and should do the work itself.
 */
export async function rerunWithStartFlags(script: URL): Promise<number | null> {
  if (Deno.env.get(APPLIED) === "1") return null;
  const flags = startV8Flags();
  if (flags.length === 0) return null;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...flags, script.pathname, ...Deno.args],
    env: { [APPLIED]: "1" },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const stop = () => child.kill("SIGTERM");
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  const { code } = await child.status;
  Deno.removeSignalListener("SIGTERM", stop);
  Deno.removeSignalListener("SIGINT", stop);
  return code;
}
