/** The storage health probe. */
import { healthKey } from "./keys.ts";

/** Whether KV answers a read. */
export async function checkHealth(kv: Deno.Kv): Promise<boolean> {
  try {
    await kv.get(healthKey());
    return true;
  } catch {
    return false;
  }
}
