/** The storage health probe. */
import type { Kv } from "../backend/types.ts";
import { healthKey } from "../keys.ts";

/** Whether KV answers a read. */
export async function checkHealth(kv: Kv): Promise<boolean> {
  try {
    await kv.get(healthKey());
    return true;
  } catch {
    return false;
  }
}
