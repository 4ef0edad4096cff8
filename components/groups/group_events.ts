/**
 * The group islands of one page share the group's latest version through a DOM event: after
 * a write, the writer announces the group as stored and its new `ETag`, so the next write from
 * another island sends the right `If-Match`.
 */
import type { Group } from "../../lib/types.ts";
import { callApi, groupPath } from "./api.ts";

const GROUP_CHANGED = "sy:group-changed";

/** The group as stored now, with its `ETag`. */
export interface GroupVersion {
  group: Group;
  etag: string;
}

/** Tells the page's other islands that the group changed. */
export function announceGroup(version: GroupVersion): void {
  document.dispatchEvent(new CustomEvent<GroupVersion>(GROUP_CHANGED, { detail: version }));
}

/** Calls `listener` whenever an island announces a change; answers the unsubscribe function. */
export function onGroupChanged(listener: (version: GroupVersion) => void): () => void {
  const handle = (event: Event) => listener((event as CustomEvent<GroupVersion>).detail);
  document.addEventListener(GROUP_CHANGED, handle);
  return () => document.removeEventListener(GROUP_CHANGED, handle);
}

/** Reads the group as stored now (after a 409), or null when it is gone or unreadable. */
export async function fetchGroup(groupId: string): Promise<GroupVersion | null> {
  const answer = await callApi<Group>("GET", groupPath(groupId));
  return answer.ok && answer.data && answer.etag ? { group: answer.data, etag: answer.etag } : null;
}
