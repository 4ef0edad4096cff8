/**
 * Switchyard as users run it (`main.ts`: HTTP ingress, job worker, delivery) in a process of
 * its own, configured through its environment; stopped gracefully or killed (SIGKILL).
 */

/** A running `main.ts`. */
export interface AppInstance {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Resolves once `GET /health` answers 200; rejects when the process ends first. */
  ready: Promise<void>;
  /** The last lines the process wrote (its warnings and errors). */
  output(): string;
  /** Ends it: SIGTERM (graceful) or SIGKILL (as a crash would). */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
}

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const ROOT = new URL("../../", import.meta.url).pathname;
/** Output kept per instance. */
const OUTPUT_CHARS = 20_000;

/** A TCP port nobody listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts `main.ts` on a free port of 127.0.0.1 with `env` added to its settings. */
export function startAppInstance(env: Record<string, string>): AppInstance {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN],
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOSTNAME: "127.0.0.1", BASE_URL: url },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  const keep = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      output = (output + decoder.decode(chunk, { stream: true })).slice(-OUTPUT_CHARS);
    }
  };
  const reading = Promise.all([keep(child.stdout), keep(child.stderr)]);
  let exited = false;
  child.status.then(() => exited = true);
  const ready = (async () => {
    while (!exited) {
      try {
        const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
        await response.body?.cancel();
        if (response.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`instance exited before it was ready: ${output.slice(-2_000)}`);
  })();
  ready.catch(() => {}); // an instance killed before it was ready is not an error here
  let stopped: Promise<void> | undefined;
  return {
    url,
    ready,
    output: () => output,
    stop(signal = "SIGTERM") {
      stopped ??= (async () => {
        try {
          child.kill(signal);
        } catch {
          // already exited
        }
        await child.status;
        await reading;
      })();
      return stopped;
    },
  };
}
