import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ConflictDialog } from "../../../components/routes/ConflictDialog.tsx";
import { Modal } from "../../../components/layout/Modal.tsx";
import { Icon } from "../../../components/routes/Icon.tsx";
import { editorHref, RouteRow } from "../../../components/routes/RouteRow.tsx";
import { type Status, StatusToast } from "../../../components/routes/StatusToast.tsx";
import { BUTTON, MUTED, PANEL, Switch } from "../../../components/routes/ui.tsx";
import { ApiError } from "../../../components/api/admin_api.ts";
import { readRoutes, writeRoutes } from "../../../components/api/routes_api.ts";
import { diffRoutes, isEmptyDiff, type RouteDiff } from "../../../lib/console/route_diff.ts";
import {
  deleteRoute,
  duplicateRoute,
  moveRoute,
  setEnabled,
} from "../../../lib/console/route_list.ts";
import type { Route } from "../../../lib/types.ts";

interface Props {
  group: { id: string; name: string };
  routes: Route[];
  etag: string;
  canEdit: boolean;
}

interface Conflict {
  diff: RouteDiff;
  current: Route[];
  etag: string;
}

/**
 * A group's ordered routes: enable switch, reorder (drag, or the move buttons from the
 * keyboard), duplicate and delete with confirmation. Every change saves the group's whole
 * list at once with `If-Match`; changes made while a save runs are saved right after it. A 409
 * shows what changed elsewhere and offers reload or overwrite; when only other groups changed,
 * the save is repeated on the new version without asking.
 */
export default function RouteList(props: Props) {
  const [routes, setRoutes] = useState(props.routes);
  const [status, setStatus] = useState<Status | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [deleting, setDeleting] = useState<Route | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const saved = useRef({ routes: props.routes, etag: props.etag });
  const pending = useRef<Route[] | null>(null);
  const running = useRef(false);
  const focusAfter = useRef<string | null>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  useEffect(() => {
    if (!focusAfter.current) return;
    const element = document.getElementById(focusAfter.current);
    focusAfter.current = null;
    if (element instanceof HTMLElement && !element.hasAttribute("disabled")) element.focus();
  });

  /** What to do after a failed save of `next`: try again (only other groups changed) or stop. */
  const recover = async (error: unknown, next: Route[]): Promise<"retry" | "stop"> => {
    if (error instanceof ApiError && error.status === 409) {
      try {
        const current = await readRoutes(props.group.id);
        const diff = diffRoutes(saved.current.routes, current.items);
        if (isEmptyDiff(diff)) {
          saved.current = { routes: saved.current.routes, etag: current.etag };
          pending.current ??= next;
          return "retry";
        }
        setConflict({ diff, current: current.items, etag: current.etag });
        return "stop";
      } catch (reload) {
        error = reload;
      }
    }
    setRoutes(saved.current.routes);
    setStatus({ text: `Not saved: ${(error as Error).message}`, tone: "error" });
    return "stop";
  };

  const saveLoop = useCallback(async (message: string) => {
    if (running.current) return;
    running.current = true;
    try {
      while (pending.current) {
        const next = pending.current;
        pending.current = null;
        try {
          const etag = await writeRoutes(props.group.id, next, saved.current.etag);
          saved.current = { routes: next, etag };
          if (!pending.current) setStatus({ text: message, tone: "ok" });
        } catch (error) {
          if (await recover(error, next) === "stop") pending.current = null;
        }
      }
    } finally {
      running.current = false;
    }
  }, [props.group.id]);

  const change = (next: Route[], message: string) => {
    setRoutes(next);
    pending.current = next;
    void saveLoop(message);
  };

  const move = (from: number, to: number, focusId?: string) => {
    if (to < 0 || to >= routes.length || from === to) return;
    const route = routes[from];
    if (focusId) focusAfter.current = focusId;
    change(
      moveRoute(routes, from, to),
      `Moved "${route.name}" to position ${to + 1} of ${routes.length}`,
    );
  };

  const reload = () => {
    if (!conflict) return;
    saved.current = { routes: conflict.current, etag: conflict.etag };
    setRoutes(conflict.current);
    setConflict(null);
    setStatus({
      text: "Reloaded the current routes; your last change was not saved",
      tone: "info",
    });
  };

  const overwrite = () => {
    if (!conflict) return;
    saved.current = { routes: saved.current.routes, etag: conflict.etag };
    setConflict(null);
    pending.current = routes;
    void saveLoop("Saved your version of the routes");
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const route = deleting;
    const index = routes.findIndex((item) => item.id === route.id);
    const neighbour = routes[index + 1] ?? routes[index - 1];
    focusAfter.current = neighbour ? `route-${neighbour.id}-delete` : "new-route";
    setDeleting(null);
    change(deleteRoute(routes, route.id), `Deleted "${route.name}"`);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    const from = routes.findIndex((route) => route.id === dragging);
    if (from >= 0 && dropAt !== null) move(from, dropAt > from ? dropAt - 1 : dropAt);
    setDragging(null);
    setDropAt(null);
  };

  const newHref = `/admin/routes/${encodeURIComponent(props.group.id)}/new`;

  return (
    <div data-ready={ready}>
      <div class="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p class={`text-sm ${MUTED}`}>
          Routes are tried in this order; a fallback route fires only when no other route did.
        </p>
        {props.canEdit && <a class={BUTTON.primary} href={newHref} id="new-route">New route</a>}
      </div>
      {routes.length === 0
        ? (
          <div class={`${PANEL} p-6 text-sm`}>
            <p>This group has no routes yet.</p>
            <p class={`mt-1 ${MUTED}`}>
              A route picks events with a filter and sends them to Discord or Telegram.
            </p>
          </div>
        )
        : (
          <ol
            class={`${PANEL} divide-y divide-slate-200 dark:divide-slate-700`}
            aria-label={`Routes of ${props.group.name}`}
            data-testid="route-list"
            onDragOver={(event) => {
              if (dragging) event.preventDefault();
            }}
            onDrop={onDrop}
          >
            {routes.map((route, index) => {
              const label = route.name;
              const key = `route-${route.id}`;
              return (
                <li
                  key={route.id}
                  data-testid="route-row"
                  data-route-id={route.id}
                  draggable={props.canEdit}
                  onDragStart={(event) => {
                    setDragging(route.id);
                    event.dataTransfer?.setData("text/plain", route.id);
                    if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
                  }}
                  onDragEnd={() => {
                    setDragging(null);
                    setDropAt(null);
                  }}
                  onDragOver={(event) => {
                    if (!dragging) return;
                    event.preventDefault();
                    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
                    setDropAt(event.clientY < box.top + box.height / 2 ? index : index + 1);
                  }}
                  class={`relative ${dragging === route.id ? "opacity-50" : ""} ${
                    dropAt === index
                      ? "before:absolute before:inset-x-0 before:-top-px before:h-0.5 before:bg-indigo-500"
                      : ""
                  } ${
                    dropAt === index + 1 && index === routes.length - 1
                      ? "after:absolute after:inset-x-0 after:-bottom-px after:h-0.5 after:bg-indigo-500"
                      : ""
                  }`}
                >
                  <RouteRow
                    route={route}
                    position={index + 1}
                    groupId={props.group.id}
                    handle={props.canEdit && (
                      <span
                        aria-hidden="true"
                        title="Drag to reorder"
                        class="mt-0.5 hidden cursor-grab select-none text-slate-500 sm:inline dark:text-slate-400"
                      >
                        <Icon name="grip" />
                      </span>
                    )}
                    toggle={props.canEdit && (
                      <Switch
                        checked={route.enabled}
                        label={`Enabled: ${label}`}
                        id={`${key}-enabled`}
                        testId="route-enabled"
                        onChange={(enabled) =>
                          change(
                            setEnabled(routes, route.id, enabled),
                            `${enabled ? "Enabled" : "Disabled"} "${route.name}"`,
                          )}
                      />
                    )}
                    controls={props.canEdit && (
                      <div class="flex items-center gap-0.5">
                        <button
                          type="button"
                          id={`${key}-up`}
                          class={BUTTON.icon}
                          aria-label={`Move up: ${label}`}
                          title="Move up"
                          disabled={index === 0}
                          onClick={() =>
                            move(index, index - 1, index - 1 === 0 ? `${key}-down` : `${key}-up`)}
                        >
                          <Icon name="up" />
                        </button>
                        <button
                          type="button"
                          id={`${key}-down`}
                          class={BUTTON.icon}
                          aria-label={`Move down: ${label}`}
                          title="Move down"
                          disabled={index === routes.length - 1}
                          onClick={() =>
                            move(
                              index,
                              index + 1,
                              index + 1 === routes.length - 1 ? `${key}-up` : `${key}-down`,
                            )}
                        >
                          <Icon name="down" />
                        </button>
                        <a
                          class={BUTTON.icon}
                          href={editorHref(props.group.id, route.id)}
                          aria-label={`Edit: ${label}`}
                          title="Edit"
                        >
                          <Icon name="edit" />
                        </a>
                        <button
                          type="button"
                          class={BUTTON.icon}
                          aria-label={`Duplicate: ${label}`}
                          title="Duplicate"
                          onClick={() =>
                            change(
                              duplicateRoute(routes, index),
                              `Duplicated "${route.name}" (the copy is disabled)`,
                            )}
                        >
                          <Icon name="copy" />
                        </button>
                        <button
                          type="button"
                          class={`${BUTTON.icon} text-red-700 dark:text-red-300`}
                          id={`${key}-delete`}
                          aria-label={`Delete: ${label}`}
                          title="Delete"
                          onClick={() => setDeleting(route)}
                        >
                          <Icon name="trash" />
                        </button>
                      </div>
                    )}
                  />
                </li>
              );
            })}
          </ol>
        )}
      <Modal
        open={deleting !== null}
        title="Delete this route?"
        onClose={() => setDeleting(null)}
        testId="confirm-delete"
        role="alertdialog"
      >
        <p class={`mt-2 text-sm ${MUTED}`}>
          “{deleting?.name}” stops sending at once. This cannot be undone.
        </p>
        <div class="mt-5 flex justify-end gap-2">
          <button
            type="button"
            class={BUTTON.secondary}
            onClick={() => setDeleting(null)}
            autofocus
          >
            Cancel
          </button>
          <button type="button" class={BUTTON.danger} onClick={confirmDelete}>
            Delete route
          </button>
        </div>
      </Modal>
      <ConflictDialog
        diff={conflict?.diff ?? null}
        reloadHint="Reload shows the current routes (your last change is dropped); overwrite saves your list over theirs."
        onReload={reload}
        onOverwrite={overwrite}
        onDismiss={reload}
      />
      <StatusToast status={status} onDismiss={() => setStatus(null)} />
    </div>
  );
}
