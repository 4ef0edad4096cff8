/**
 * The group's filter fragments in the route editor: where an inserted one goes, why one cannot
 * go there, inserting a copy, and saving or deleting one (versioned with `If-Match`).
 */
import { useMemo, useState } from "preact/hooks";
import { adminApi, ApiError } from "../../api/admin_api.ts";
import {
  canInsert,
  cloneNode,
  fromFilterNode,
  insertNode,
  isGroup,
  locate,
  NodeIds,
  toFilterNode,
} from "../../../lib/console/filter_tree.ts";
import { idFromName } from "../../../lib/console/route_draft.ts";
import type { Fragment } from "../../../lib/types.ts";
import type { Status } from "../StatusToast.tsx";
import type { FilterTreeModel } from "./use_filter_tree.ts";

/** The fragments of `groupId` as the page read them, used with the editor's `tree`. */
export function useFragments(
  groupId: string,
  initial: { items: Fragment[]; etag: string },
  tree: FilterTreeModel,
  onStatus: (status: Status) => void,
) {
  const [fragments, setFragments] = useState(initial);
  const [name, setName] = useState("");
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<Fragment | null>(null);
  const { selected } = tree;
  const root = tree.tree;

  // Where an inserted fragment goes: the selected group, next to the selected leaf, or the top.
  const insertion = useMemo(() => {
    const found = selected ? locate(root, selected) : null;
    if (found && isGroup(found.node) && found.node.kind !== "not") {
      return {
        groupId: found.node.id,
        index: undefined,
        label: `the selected ${found.node.kind} group`,
      };
    }
    const parent = found?.ancestors.at(-1);
    if (found && parent && parent.kind !== "not") {
      return {
        groupId: parent.id,
        index: found.index + 1,
        label: "the group of the selected node",
      };
    }
    if (isGroup(root) && root.kind !== "not") {
      return { groupId: root.id, index: undefined, label: "the top group" };
    }
    return null;
  }, [root, selected]);

  const fragmentTrees = useMemo(() => {
    const scratch = new NodeIds();
    return new Map(fragments.items.map((fragment) => {
      try {
        return [fragment.id, fromFilterNode(fragment.node, scratch)] as const;
      } catch {
        return [fragment.id, null] as const;
      }
    }));
  }, [fragments.items]);

  const refusals = new Map(fragments.items.map((fragment) => {
    const candidate = fragmentTrees.get(fragment.id);
    if (!candidate) return [fragment.id, "this fragment is not a valid tree"];
    if (!insertion) return [fragment.id, "select a group to insert into"];
    return [fragment.id, canInsert(root, insertion.groupId, candidate)];
  }));

  const write = async (items: Fragment[], done: string) => {
    setBusy(true);
    try {
      const answer = await adminApi("PUT /admin/api/groups/{id}/fragments", {
        params: { id: groupId },
        body: { fragments: items },
        etag: fragments.etag,
      });
      const etag = answer.etag ?? "";
      setFragments({ items, etag });
      onStatus({ text: done, tone: "ok" });
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const current = await adminApi("GET /admin/api/groups/{id}/fragments", {
          params: { id: groupId },
        }).catch(() => null);
        if (current) setFragments({ items: current.data.fragments, etag: current.etag ?? "" });
        onStatus({
          text: "The fragments were changed elsewhere; the list is reloaded, try again.",
          tone: "error",
        });
      } else onStatus({ text: `Not saved: ${(error as Error).message}`, tone: "error" });
      return false;
    } finally {
      setBusy(false);
    }
  };

  return {
    items: fragments.items,
    insertion,
    refusals,
    name,
    nameProblem,
    busy,
    deleting,
    setName,
    /** Asks to delete a fragment (null: the question is dismissed). */
    setDeleting,
    /** Inserts a copy of `fragment` at the insertion point. */
    insert(fragment: Fragment) {
      const candidate = fragmentTrees.get(fragment.id);
      if (!candidate || !insertion) return;
      let focus: string | undefined;
      tree.edit((current, nodeIds) => {
        const copy = cloneNode(candidate, nodeIds);
        focus = `${copy.id}-select`;
        return insertNode(current, insertion.groupId, copy, insertion.index);
      }, () => focus);
      onStatus({ text: `Inserted a copy of “${fragment.name}”`, tone: "ok" });
    },
    /** Saves the selected node as a fragment named as typed. */
    async save() {
      const found = selected ? locate(root, selected) : null;
      const trimmed = name.trim();
      if (!found) return setNameProblem("Select a node of the tree first.");
      if (trimmed === "") return setNameProblem("required");
      if (trimmed.length > 100) return setNameProblem("at most 100 characters");
      setNameProblem(null);
      const taken = new Set(fragments.items.map((fragment) => fragment.id));
      const fragment: Fragment = {
        id: idFromName(trimmed, taken),
        groupId,
        name: trimmed,
        node: toFilterNode(found.node),
      };
      if (await write([...fragments.items, fragment], `Saved fragment “${trimmed}”`)) {
        setName("");
      }
    },
    /** Deletes the fragment asked about. */
    async remove() {
      const fragment = deleting;
      setDeleting(null);
      if (!fragment) return;
      await write(
        fragments.items.filter((item) => item.id !== fragment.id),
        `Deleted fragment “${fragment.name}”`,
      );
    },
  };
}

/** The fragments model {@link useFragments} answers. */
export type FragmentsModel = ReturnType<typeof useFragments>;
