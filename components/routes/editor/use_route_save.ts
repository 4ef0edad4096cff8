/**
 * Saving in the route editor: the group's routes are sent with `If-Match`; a 409 that changed
 * nothing of this route is saved again onto the current version, else it shows what changed
 * elsewhere and offers reload or overwrite. Ctrl+S saves.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../../api/admin_api.ts";
import { toFilterNode } from "../../../lib/console/filter_tree.ts";
import { diffRoutes, isEmptyDiff, type RouteDiff } from "../../../lib/console/route_diff.ts";
import { fieldOfApiError } from "../../../lib/console/route_draft.ts";
import { putRoute } from "../../../lib/console/route_list.ts";
import { readRoutes, writeRoutes } from "../../api/routes_api.ts";
import type { Route } from "../../../lib/types.ts";
import { editorHref } from "../RouteRow.tsx";
import { PASTED } from "../SamplePanel.tsx";
import type { Status } from "../StatusToast.tsx";
import { keepPastedSample } from "./pasted_sample.ts";
import type { FilterTreeModel } from "./use_filter_tree.ts";
import type { DraftModel, RouteList } from "./use_route_draft.ts";
import { type SampleState, savedQuery } from "./use_sample.ts";

/** `focusAfter` value that focuses the first field marked invalid. */
export const FIRST_INVALID = "[aria-invalid=true]";

/** A save refused because the routes changed elsewhere. */
interface Conflict {
  diff: RouteDiff;
  current: Route[];
  etag: string;
}

/** What saving needs of the editor. */
export interface SaveInputs {
  groupId: string;
  readOnly: boolean;
  draft: DraftModel;
  tree: FilterTreeModel;
  sample: SampleState;
  onStatus: (status: Status) => void;
  focusAfter: (id: string) => void;
}

/** Saving the route of the editor, with the conflict it may meet. */
export function useRouteSave(inputs: SaveInputs) {
  const { groupId, draft, tree, sample, onStatus } = inputs;
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const { editingId } = draft;

  /** Saves the route into `base` (the group's routes as last read). */
  const saveOnto = async (base: RouteList, retried = false): Promise<void> => {
    const stored = base.routes.find((route) => route.id === editingId);
    const route = draft.routeOf(toFilterNode(tree.current()), groupId, stored);
    const routes = stored
      ? putRoute(base.routes, route, editingId ?? undefined)
      : [...base.routes, route];
    setSaving(true);
    try {
      const etag = await writeRoutes(groupId, routes, base.etag);
      draft.setDirty(false);
      if (editingId === null) {
        if (sample.source === PASTED) keepPastedSample(groupId, sample);
        location.replace(`${editorHref(groupId, route.id)}?${savedQuery(sample)}`);
        return;
      }
      draft.setList({ routes, etag });
      onStatus({ text: "Route saved", tone: "ok" });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const current = await readRoutes(groupId).catch(() => null);
        if (!current) {
          onStatus({
            text: "Not saved: the routes changed and could not be reloaded",
            tone: "error",
          });
          return;
        }
        const fresh = { routes: current.items, etag: current.etag };
        const diff = diffRoutes(base.routes, fresh.routes);
        if (isEmptyDiff(diff) && !retried) return await saveOnto(fresh, true);
        setConflict({ diff, current: fresh.routes, etag: fresh.etag });
        return;
      }
      const index = routes.indexOf(route);
      const field = error instanceof ApiError && error.status === 400
        ? fieldOfApiError(error.message, index)
        : null;
      if (field) draft.setApiErrors(new Map([[field.field, field.message]]));
      onStatus({ text: `Not saved: ${(error as Error).message}`, tone: "error" });
    } finally {
      setSaving(false);
    }
  };

  const save = () => {
    if (inputs.readOnly || saving) return;
    draft.setAttempted(true);
    const count = draft.problemCount() + tree.issues.count;
    if (count > 0) {
      onStatus({
        text: `Not saved: fix the ${count} problem${
          count === 1 ? "" : "s"
        } marked in the form first.`,
        tone: "error",
      });
      inputs.focusAfter(FIRST_INVALID);
      return;
    }
    void saveOnto(draft.list);
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
        event.preventDefault();
        save();
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  });

  return {
    saving,
    conflict,
    save,
    dismissConflict: () => setConflict(null),
    /** Takes the routes saved elsewhere, dropping the edits of this route. */
    reload() {
      if (!conflict) return;
      const current = conflict.current.find((route) => route.id === editingId);
      draft.setList({ routes: conflict.current, etag: conflict.etag });
      setConflict(null);
      if (editingId === null) {
        onStatus({
          text: "Reloaded the group's routes; save again to add this route.",
          tone: "info",
        });
        return;
      }
      if (!current) {
        draft.detach();
        onStatus({
          text: "This route was deleted elsewhere; saving creates it again.",
          tone: "info",
        });
        return;
      }
      draft.load(current);
      tree.load(current);
      draft.setDirty(false);
      onStatus({ text: "Loaded the current version of this route.", tone: "info" });
    },
    /** Saves this route onto the routes saved elsewhere. */
    overwrite() {
      if (!conflict) return;
      const base = { routes: conflict.current, etag: conflict.etag };
      setConflict(null);
      void saveOnto(base, true);
    },
  };
}
