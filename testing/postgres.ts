/**
 * A throw-away PostgreSQL for tests.
 *
 * `startTestPostgres()` hands out a fresh, empty database and its URL:
 * - on the server named by `PG_TEST_URL` when that is set (a database is created there per call);
 * - else on a cluster of its own, made with Debian's binaries (`/usr/lib/postgresql/<n>/bin`):
 *   `initdb` in a temp folder once per isolate, started on 127.0.0.1 with a free port (its unix
 *   socket in the temp folder), as the `postgres` user when running as root, without fsync (the
 *   data is thrown away). The cluster is stopped and its folder removed when the isolate unloads.
 * - else `null`: the caller skips its PostgreSQL tests and says so loudly.
 */
import postgres from "postgres";

/** One fresh database; `stop()` drops it. */
export interface TestPostgres {
  url: string;
  stop(): Promise<void>;
}

const BIN_ROOT = "/usr/lib/postgresql";
const FOLDER_PREFIX = "switchyard-pg-";

/** A running test cluster. */
export interface TestCluster {
  /** URL of the cluster's maintenance database (`postgres`). */
  adminUrl: string;
  /** Stops it at once and removes its folder (nothing to do for a `PG_TEST_URL` server). */
  stopNow(): void;
}

let cluster: Promise<TestCluster | null> | undefined;
let databases = 0;

/** A fresh empty database on a test server, or null when no PostgreSQL can be had. */
export async function startTestPostgres(): Promise<TestPostgres | null> {
  cluster ??= openCluster();
  const server = await cluster;
  if (!server) return null;
  const name = `switchyard_test_${Deno.pid}_${++databases}_${crypto.randomUUID().slice(0, 8)}`;
  await adminCommand(server.adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    stop: () => adminCommand(server.adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** Runs one statement on the maintenance database over a short-lived connection. */
export async function adminCommand(adminUrl: string, statement: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end();
  }
}

async function openCluster(): Promise<TestCluster | null> {
  const given = Deno.env.get("PG_TEST_URL");
  if (given) return { adminUrl: given, stopNow: () => {} };
  const started = await startTestCluster();
  if (started) globalThis.addEventListener("unload", () => started.stopNow());
  return started;
}

/**
 * Starts a throw-away cluster of its own from Debian's binaries (see the module doc), or null
 * when they are not installed. The caller stops it (`stopNow`).
 */
export async function startTestCluster(): Promise<TestCluster | null> {
  const bin = await findBinaries();
  if (!bin) return null;
  return await startCluster(bin);
}

/** The newest installed Debian PostgreSQL's bin folder, or null. */
export async function findBinaries(): Promise<string | null> {
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
    try {
      await Deno.stat(`${bin}/initdb`);
      return bin;
    } catch {
      // an incomplete install: try the next version
    }
  }
  return null;
}

/** Whether this process runs as root (PostgreSQL refuses to). */
function runningAsRoot(): boolean {
  return Deno.uid() === 0;
}

/** Runs a PostgreSQL program, as the `postgres` user when running as root; throws on failure. */
async function runAsOwner(program: string, args: string[]): Promise<void> {
  const [command, fullArgs] = runningAsRoot()
    ? ["runuser", ["-u", "postgres", "--", program, ...args]]
    : [program, args];
  const result = await new Deno.Command(command, { args: fullArgs, stdin: "null" }).output();
  if (!result.success) {
    const said = new TextDecoder().decode(result.stderr) + new TextDecoder().decode(result.stdout);
    throw new Error(`${program} failed: ${said.trim()}`);
  }
}

/** The uid and gid of the `postgres` user. */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const ask = async (flag: string) => {
    const result = await new Deno.Command("id", { args: [flag, "postgres"] }).output();
    if (!result.success) throw new Error("running as root but there is no postgres user");
    return Number(new TextDecoder().decode(result.stdout).trim());
  };
  return { uid: await ask("-u"), gid: await ask("-g") };
}

/** A TCP port nobody listens on right now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function startCluster(bin: string): Promise<TestCluster> {
  await removeOrphans(bin);
  const made = await initCluster(bin, {
    folderPrefix: `${FOLDER_PREFIX}${Deno.pid}-`,
    durable: false,
  });
  await made.start();
  return { adminUrl: made.adminUrl, stopNow: () => stopClusterNow(bin, made.folder) };
}

/** How `initCluster` makes a cluster. */
export interface ClusterOptions {
  /** Start of its temp folder's name. */
  folderPrefix: string;
  /**
   * Keep the server's default durability (fsync, synchronous commit, full page writes) so a crash
   * loses no commit it reported; off for throw-away test data, which is faster.
   */
  durable: boolean;
}

/** A cluster in a temp folder of its own, on 127.0.0.1 at a free port. */
export interface OwnCluster {
  /** The temp folder: data directory, unix socket and server log. */
  folder: string;
  /** The server's TCP port (the same after every start). */
  port: number;
  /** URL of the maintenance database (`postgres`). */
  adminUrl: string;
  /** `pg_ctl start`: resolves once the server accepts connections. */
  start(): Promise<void>;
  /** `pg_ctl -m immediate stop`: every connection drops, nothing is checkpointed. */
  stopImmediately(): Promise<void>;
}

/**
 * Makes a cluster (`initdb`) with the binaries in `bin` in a fresh temp folder, owned by the
 * `postgres` user when running as root. The server is not started yet.
 */
export async function initCluster(bin: string, options: ClusterOptions): Promise<OwnCluster> {
  const folder = await Deno.makeTempDir({ prefix: options.folderPrefix });
  if (runningAsRoot()) {
    const { uid, gid } = await postgresUser();
    await Deno.chown(folder, uid, gid);
  }
  const data = `${folder}/data`;
  await runAsOwner(`${bin}/initdb`, [
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    ...(options.durable ? [] : ["--no-sync"]),
    "--no-instructions",
    "-E",
    "UTF8",
    "--locale=C",
  ]);
  const port = freePort();
  const settings = [
    "listen_addresses=127.0.0.1",
    `port=${port}`,
    `unix_socket_directories=${folder}`,
    "max_connections=200",
    ...(options.durable ? [] : THROW_AWAY_SETTINGS),
  ];
  return {
    folder,
    port,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () =>
      runAsOwner(`${bin}/pg_ctl`, [
        "-D",
        data,
        "-o",
        settings.map((setting) => `-c ${setting}`).join(" "),
        "-l",
        `${folder}/server.log`,
        "-w",
        "-t",
        "60",
        "start",
      ]),
    stopImmediately: () =>
      runAsOwner(`${bin}/pg_ctl`, ["-D", data, "-m", "immediate", "-w", "stop"]),
  };
}

/** Server settings for data that is thrown away: no durability, small buffers. */
const THROW_AWAY_SETTINGS = [
  "fsync=off",
  "synchronous_commit=off",
  "full_page_writes=off",
  "shared_buffers=32MB",
];

/** Stops the cluster at once and removes its folder (sync: runs while the isolate unloads). */
function stopClusterNow(bin: string, folder: string): void {
  const args = ["-D", `${folder}/data`, "-m", "immediate", "-w", "stop"];
  const [command, fullArgs] = runningAsRoot()
    ? ["runuser", ["-u", "postgres", "--", `${bin}/pg_ctl`, ...args]]
    : [`${bin}/pg_ctl`, args];
  try {
    new Deno.Command(command, { args: fullArgs, stdout: "null", stderr: "null" }).outputSync();
  } finally {
    Deno.removeSync(folder, { recursive: true });
  }
}

/** Stops and removes clusters left behind by test processes that died (their pid is gone). */
async function removeOrphans(bin: string): Promise<void> {
  const temp = Deno.env.get("TMPDIR") ?? "/tmp";
  for await (const entry of Deno.readDir(temp)) {
    const owner = entry.name.startsWith(FOLDER_PREFIX)
      ? Number(entry.name.slice(FOLDER_PREFIX.length).split("-")[0])
      : NaN;
    if (!entry.isDirectory || !Number.isInteger(owner) || processAlive(owner)) continue;
    try {
      stopClusterNow(bin, `${temp}/${entry.name}`);
    } catch {
      // another process is cleaning it up at the same time
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    Deno.statSync(`/proc/${pid}`);
    return true;
  } catch {
    return false;
  }
}
