/**
 * The group islands of one page share the group's latest version through a DOM event: after
 * a write, the writer announces the group as stored and its new `ETag`, so the next write from
 * another island sends the right `If-Match`.
 */
import { useEffect, useState } from "preact/hooks";
import { tryAdminApi } from "../api/admin_api.ts";
import type { Group } from "../../lib/types.ts";

const GROUP_CHANGED = "sy:group-changed";

/** The group as stored now, with its `ETag`. */
export interface GroupVersion {
  group: Group;
  etag: string;
}

function announceGroup(version: GroupVersion): void {
  document.dispatchEvent(new CustomEvent<GroupVersion>(GROUP_CHANGED, { detail: version }));
}

function onGroupChanged(listener: (version: GroupVersion) => void): () => void {
  const handle = (event: Event) => listener((event as CustomEvent<GroupVersion>).detail);
  document.addEventListener(GROUP_CHANGED, handle);
  return () => document.removeEventListener(GROUP_CHANGED, handle);
}

/** Reads the group as stored now (after a 409), or null when it is gone or unreadable. */
async function fetchGroup(groupId: string): Promise<GroupVersion | null> {
  const answer = await tryAdminApi("GET /admin/api/groups/{id}", { params: { id: groupId } });
  return answer.ok && answer.etag ? { group: answer.data, etag: answer.etag } : null;
}

/**
 * The group as an island of the page knows it, kept in step with the versions the page's
 * other islands announce.
 */
export function useGroupVersion(initial: GroupVersion) {
  const [version, setVersion] = useState(initial);
  useEffect(() => onGroupChanged(setVersion), []);
  return {
    ...version,
    /** Keeps the version this island wrote and tells the other islands. */
    wrote(next: GroupVersion) {
      setVersion(next);
      announceGroup(next);
    },
    /**
     * Takes the group as stored now (someone else changed it, so nothing was saved); reloads
     * the page when it cannot be read. Answers whether the island shows the stored group.
     */
    async reload(): Promise<boolean> {
      const current = await fetchGroup(version.group.id);
      if (!current) {
        location.reload();
        return false;
      }
      setVersion(current);
      announceGroup(current);
      return true;
    },
  };
}
