/**
 * Events this process has just accepted, kept parsed for the fan-out that usually follows in
 * the same process within milliseconds: that fan-out then skips reading the stored record,
 * inflating the payload and parsing it again. It is only a shortcut: the stored event stays
 * the truth, and an event not found here (another instance accepted it, or it was pushed out
 * by newer ones) is read from the store as before.
 *
 * Each event is handed out once and then forgotten, so a caller that changes its copy changes
 * no one else's, and the cache holds at most {@link RECENT_EVENTS_KEPT} events per store.
 */
import type { Kv } from "../backend/types.ts";
import type { ForgeEvent } from "../../types.ts";

/** The most events kept per store (a 28 KB payload takes roughly 100 KB once parsed). */
export const RECENT_EVENTS_KEPT = 64;

/** An event as the fan-out takes it, with its payload's size as received. */
export interface RecentEvent {
  event: ForgeEvent;
  payloadBytes: number;
}

const recentByStore = new WeakMap<Kv, Map<string, RecentEvent>>();

/** Keeps an event that `kv` has just committed, pushing out the oldest beyond the limit. */
export function rememberAccepted(kv: Kv, recent: RecentEvent): void {
  let recentEvents = recentByStore.get(kv);
  if (!recentEvents) {
    recentEvents = new Map();
    recentByStore.set(kv, recentEvents);
  }
  recentEvents.set(recent.event.id, recent);
  if (recentEvents.size > RECENT_EVENTS_KEPT) {
    recentEvents.delete(recentEvents.keys().next().value!);
  }
}

/** The event with this id if this process accepted it recently, removed from the cache. */
export function takeRecentEvent(kv: Kv, eventId: string): RecentEvent | undefined {
  const recentEvents = recentByStore.get(kv);
  const recent = recentEvents?.get(eventId);
  if (recent) recentEvents!.delete(eventId);
  return recent;
}
