/**
 * A PostgreSQL cluster of the fault run's own, built from Debian's binaries in a temp folder on
 * 127.0.0.1 (as the `postgres` user when run as root), with the server's default durability
 * (fsync and synchronous commit on, unlike the test clusters): a crash-like stop
 * (`pg_ctl -m immediate stop`, no checkpoint, every backend killed) must not lose a commit the
 * store reported. It starts again on the same port, so clients reconnect to the same URL.
 */
import postgres from "postgres";

/** A running cluster. */
export interface FaultCluster {
  /** URL of a fresh database for one scenario. */
  createDatabase(name: string): Promise<string>;
  /** The server's TCP port. */
  port: number;
  /** `pg_ctl -m immediate stop`: every connection drops, nothing is checkpointed. */
  crash(): Promise<void>;
  /** Starts the server again (crash recovery replays the WAL). */
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

const BIN_ROOT = "/usr/lib/postgresql";

/** The newest installed Debian PostgreSQL's bin folder, or null. */
async function binaries(): Promise<string | null> {
  const versions: number[] = [];
  try {
    for await (const entry of Deno.readDir(BIN_ROOT)) {
      if (/^\d+$/.test(entry.name)) versions.push(Number(entry.name));
    }
  } catch {
    return null;
  }
  for (const version of versions.sort((a, b) => b - a)) {
    const bin = `${BIN_ROOT}/${version}/bin`;
    if (await Deno.stat(`${bin}/pg_ctl`).then(() => true, () => false)) return bin;
  }
  return null;
}

const asRoot = () => Deno.uid() === 0;

async function run(program: string, args: string[]): Promise<void> {
  const [command, fullArgs] = asRoot()
    ? ["runuser", ["-u", "postgres", "--", program, ...args]]
    : [program, args];
  const result = await new Deno.Command(command, { args: fullArgs, stdin: "null" }).output();
  if (!result.success) {
    const said = new TextDecoder().decode(result.stderr) + new TextDecoder().decode(result.stdout);
    throw new Error(`${program} ${args.at(-1)} failed: ${said.trim()}`);
  }
}

async function idOf(flag: string): Promise<number> {
  const result = await new Deno.Command("id", { args: [flag, "postgres"] }).output();
  if (!result.success) throw new Error("running as root but there is no postgres user");
  return Number(new TextDecoder().decode(result.stdout).trim());
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts a cluster, or resolves to null when PostgreSQL is not installed. */
export async function startFaultCluster(): Promise<FaultCluster | null> {
  const bin = await binaries();
  if (!bin) return null;
  const folder = await Deno.makeTempDir({ prefix: "switchyard-faults-pg-" });
  if (asRoot()) await Deno.chown(folder, await idOf("-u"), await idOf("-g"));
  const data = `${folder}/data`;
  await run(`${bin}/initdb`, [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "--no-instructions",
    "-E",
    "UTF8",
    "--locale=C",
  ]);
  const port = freePort();
  const options = [
    "-c listen_addresses=127.0.0.1",
    `-c port=${port}`,
    `-c unix_socket_directories=${folder}`,
    "-c max_connections=200",
  ].join(" ");
  const start = () =>
    run(`${bin}/pg_ctl`, [
      "-D",
      data,
      "-o",
      options,
      "-l",
      `${folder}/server.log`,
      "-w",
      "-t",
      "60",
      "start",
    ]);
  const stop = (mode: "immediate" | "fast") =>
    run(`${bin}/pg_ctl`, ["-D", data, "-m", mode, "-w", "stop"]);
  await start();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    async createDatabase(name) {
      const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await sql.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    crash: () => stop("immediate"),
    start,
    async close() {
      await stop("immediate").catch(() => {});
      await Deno.remove(folder, { recursive: true });
    },
  };
}
