/**
 * A PostgreSQL cluster of the fault run's own, made by testing/postgres.ts (Debian's binaries, a
 * temp folder, 127.0.0.1, as the `postgres` user when run as root) but with the server's default
 * durability (fsync and synchronous commit on, unlike the test clusters): a crash-like stop
 * (`pg_ctl -m immediate stop`, no checkpoint, every backend killed) must not lose a commit the
 * store reported. It starts again on the same port, so clients reconnect to the same URL.
 */
import { adminCommand, findBinaries, initCluster } from "../../testing/postgres.ts";

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
  const cluster = await initCluster(bin, { folderPrefix: "switchyard-faults-pg-", durable: true });
  await cluster.start();
  return {
    port: cluster.port,
    async createDatabase(name) {
      await adminCommand(cluster.adminUrl, `CREATE DATABASE ${name}`);
      return `postgres://postgres@127.0.0.1:${cluster.port}/${name}`;
    },
    crash: cluster.stopImmediately,
    start: cluster.start,
    async close() {
      await cluster.stopImmediately().catch(() => {});
      await Deno.remove(cluster.folder, { recursive: true });
    },
  };
}
