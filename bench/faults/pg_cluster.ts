/**
 * A PostgreSQL cluster of the fault run's own, built from Debian's binaries in a temp folder on
 * 127.0.0.1 (as the `postgres` user when run as root), with the server's default durability
 * (fsync and synchronous commit on, unlike the test clusters): a crash-like stop
 * (`pg_ctl -m immediate stop`, no checkpoint, every backend killed) must not lose a commit the
 * store reported. It starts again on the same port, so clients reconnect to the same URL.
 */
import {
  findBinaries,
  freePort,
  postgresUser,
  runAsOwner,
  runningAsRoot,
} from "../../testing/postgres.ts";
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

/** Starts a cluster, or resolves to null when PostgreSQL is not installed. */
export async function startFaultCluster(): Promise<FaultCluster | null> {
  const bin = await findBinaries();
  if (!bin) return null;
  const folder = await Deno.makeTempDir({ prefix: "switchyard-faults-pg-" });
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
    runAsOwner(`${bin}/pg_ctl`, [
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
    runAsOwner(`${bin}/pg_ctl`, ["-D", data, "-m", mode, "-w", "stop"]);
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
