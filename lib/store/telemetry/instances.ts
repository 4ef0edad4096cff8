/**
 * Delivery instances on one store: each running worker leaves a heartbeat, so
 * every instance knows how many share the bots' global limits; and named
 * leases let periodic work (the delivery sweep) run on one instance at a time.
 */
import type { Kv } from "../backend/types.ts";
import { instanceKey, instancesPrefix, leaseKey } from "../keys.ts";

interface Heartbeat {
  seenAt: number;
}

interface Lease {
  owner: string;
  until: number;
}

/**
 * Records that `instanceId` is alive at `now` and answers how many instances
 * (this one included) were seen within `aliveMs`.
 */
export async function heartbeat(
  kv: Kv,
  instanceId: string,
  now: number,
  aliveMs: number,
): Promise<number> {
  await kv.set(instanceKey(instanceId), { seenAt: now } satisfies Heartbeat, {
    expireIn: aliveMs * 2,
  });
  let alive = 0;
  for await (const beat of kv.list<Heartbeat>({ prefix: instancesPrefix() })) {
    if (beat.value.seenAt > now - aliveMs) alive++;
  }
  return Math.max(1, alive);
}

/** Removes an instance's heartbeat when it stops. */
export async function forgetInstance(kv: Kv, instanceId: string): Promise<void> {
  await kv.delete(instanceKey(instanceId));
}

/**
 * Takes (or extends) the lease `name` for `owner` until `now + leaseMs`, unless
 * another owner holds it unexpired. True when `owner` holds it now.
 */
export async function takeNamedLease(
  kv: Kv,
  name: string,
  owner: string,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  const current = await kv.get<Lease>(leaseKey(name));
  if (current.value && current.value.owner !== owner && current.value.until > now) return false;
  const result = await kv.atomic()
    .check(current)
    .set(leaseKey(name), { owner, until: now + leaseMs } satisfies Lease, { expireIn: leaseMs * 2 })
    .commit();
  return result.ok;
}
