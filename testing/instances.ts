/**
 * Starts delivery instances (testing/delivery_instance.ts) as `deno run`
 * subprocesses on one store (a KV file or a PostgreSQL database), and stops them gracefully or
 * dead (SIGKILL).
 */

/** A running instance process. */
export interface InstanceProcess {
  /** Resolves once the instance's job worker runs. */
  ready: Promise<void>;
  /** What the instance wrote on stderr so far (its warnings and errors). */
  stderr(): string;
  /**
   * Accepts a custom event titled `title` (with `fields` added to its payload) in this
   * instance; resolves to its event id, or "" when the instance stopped before acknowledging.
   */
  accept(title: string, fields?: Record<string, unknown>): Promise<string>;
  /** When this instance let each Telegram message go, by chat (Unix ms). */
  telegramSends(): Promise<Record<string, number[]>>;
  /** Stops it: SIGTERM (passes its lanes on) or SIGKILL (as a crash would). */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
}

/** Where the instances send and how they are tuned. */
export interface InstanceOptions {
  /** The shared KV file (when `databaseUrl` is not given). */
  kvPath?: string;
  /** The shared PostgreSQL database; each instance opens its own pool on it. */
  databaseUrl?: string;
  discordUrl: string;
  telegramUrl: string;
  scale?: number;
  leaseMs?: number;
  sweepMs?: number;
  stallMs?: number;
  /** A module the instance loads first (e.g. a store fault injector), by absolute path. */
  preload?: string;
}

const INSTANCE = new URL("./delivery_instance.ts", import.meta.url).pathname;

/** Starts one instance. */
export function startInstance(options: InstanceOptions): InstanceProcess {
  const args = [
    "run",
    "-A",
    ...(options.preload ? ["--preload", options.preload] : []),
    INSTANCE,
    ...(options.databaseUrl ? ["--database", options.databaseUrl] : ["--kv", options.kvPath ?? ""]),
    "--discord",
    options.discordUrl,
    "--telegram",
    options.telegramUrl,
    "--scale",
    String(options.scale ?? 1),
    "--lease-ms",
    String(options.leaseMs ?? 20_000),
    "--sweep-ms",
    String(options.sweepMs ?? 5_000),
    "--stall-ms",
    String(options.stallMs ?? 10_000),
  ];
  const child = new Deno.Command(Deno.execPath(), {
    args,
    stdout: "piped",
    stderr: "piped",
    stdin: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const waiting = new Map<string, (eventId: string) => void>();
  const sendsAsked: ((sends: Record<string, number[]>) => void)[] = [];
  let errors = "";
  const decoder = new TextDecoder();
  const ready = Promise.withResolvers<void>();
  ready.promise.catch(() => {}); // An instance killed before it was ready is not an error here.
  (async () => {
    let out = "";
    for await (const chunk of child.stdout) {
      out += decoder.decode(chunk, { stream: true });
      let newline;
      while ((newline = out.indexOf("\n")) !== -1) {
        const line = out.slice(0, newline);
        out = out.slice(newline + 1);
        if (line === "ready") ready.resolve();
        if (line.startsWith("sends ")) {
          sendsAsked.shift()?.(JSON.parse(line.slice("sends ".length)));
        }
        const accepted = line.match(/^accepted (.*) (\S+)$/);
        if (accepted) {
          waiting.get(accepted[1])?.(accepted[2]);
          waiting.delete(accepted[1]);
        }
      }
    }
    ready.reject(new Error(`instance exited before it was ready: ${errors.slice(-2000)}`));
    // Events still being accepted when the process ended were never acknowledged.
    for (const resolve of waiting.values()) resolve("");
    waiting.clear();
  })();
  const reading = (async () => {
    for await (const chunk of child.stderr) errors += decoder.decode(chunk, { stream: true });
  })();
  let stopped: Promise<void> | null = null;
  return {
    ready: ready.promise,
    stderr: () => errors,
    telegramSends() {
      const answer = new Promise<Record<string, number[]>>((resolve) => sendsAsked.push(resolve));
      writer.write(new TextEncoder().encode("#sends\n"));
      return answer;
    },
    accept(title, fields = {}) {
      const answer = new Promise<string>((resolve) => waiting.set(title, resolve));
      writer.write(new TextEncoder().encode(`${JSON.stringify({ ...fields, title })}\n`))
        .catch(() => {});
      return answer;
    },
    stop(signal = "SIGTERM") {
      stopped ??= (async () => {
        await writer.close().catch(() => {});
        try {
          child.kill(signal);
        } catch {
          // Already exited.
        }
        await child.status;
        await reading;
      })();
      return stopped;
    },
  };
}
