/**
 * The route editor's draft model: the form's fields (`lib/console/route_draft.ts`), the message
 * template and the noise settings, the group's routes as last read, the problems to show, and
 * whether anything is unsaved. The filter tree has its own hook (`use_filter_tree.ts`).
 */
import { useMemo, useState } from "preact/hooks";
import { noiseFormOf, noiseOptionsOf, withNoiseOptions } from "../../../lib/console/noise_form.ts";
import {
  draftOf,
  draftProblems,
  idFromName,
  newDraft,
  type RouteDraft,
  routeFromDraft,
} from "../../../lib/console/route_draft.ts";
import type { FilterNode, Route } from "../../../lib/types.ts";
import { templateOf, templateTextOf, withTemplate } from "../TemplateEditor.tsx";

/** The group's routes and their version, as last read or written. */
export interface RouteList {
  routes: Route[];
  etag: string;
}

/** The draft of the route `routeId` (null: a new one) among the group's `routes`. */
export function useRouteDraft(routes: Route[], etag: string, routeId: string | null) {
  const original = routes.find((route) => route.id === routeId);
  const [draft, setDraft] = useState<RouteDraft>(() => original ? draftOf(original) : newDraft());
  const [idTouched, setIdTouched] = useState(original !== undefined);
  const [templateText, setTemplateText] = useState(() => templateTextOf(original?.template));
  const template = useMemo(() => templateOf(templateText), [templateText]);
  const [noiseForm, setNoiseForm] = useState(() => noiseFormOf(original));
  const [list, setList] = useState<RouteList>({ routes, etag });
  const [editingId, setEditingId] = useState(routeId);
  const [apiErrors, setApiErrors] = useState(new Map<string, string>());
  const [attempted, setAttempted] = useState(false);
  const [dirty, setDirty] = useState(false);

  const takenIds = useMemo(
    () => new Set(list.routes.map((route) => route.id).filter((id) => id !== editingId)),
    [list.routes, editingId],
  );
  const allProblems = useMemo(() => {
    const found = draftProblems(draft, takenIds);
    for (const [field, message] of apiErrors) if (!found.has(field)) found.set(field, message);
    return found;
  }, [draft, takenIds, apiErrors]);
  // An empty required field is pointed out once a save was tried, a wrong value as it is typed.
  const problems = useMemo(
    () =>
      attempted
        ? allProblems
        : new Map([...allProblems].filter(([, message]) => message !== "required")),
    [allProblems, attempted],
  );

  return {
    original,
    draft,
    template,
    templateText,
    noiseForm,
    list,
    editingId,
    attempted,
    dirty,
    problems,
    /** Problems of the form (all of them, shown or not) and of the noise settings. */
    problemCount: () => allProblems.size + noiseOptionsOf(noiseForm).problems.size,
    /** Changes fields of the form; the id follows the name until it is typed itself. */
    change(change: Partial<RouteDraft>) {
      setDraft((current) => {
        const next = { ...current, ...change };
        if (!idTouched && change.name !== undefined && editingId === null) {
          next.id = idFromName(change.name, takenIds);
        }
        return next;
      });
      setApiErrors(new Map());
      setDirty(true);
    },
    /** Notes that the id was typed: it no longer follows the name. */
    touchId: () => setIdTouched(true),
    setTemplateText(text: typeof templateText) {
      setTemplateText(text);
      setDirty(true);
    },
    setNoiseForm(form: typeof noiseForm) {
      setNoiseForm(form);
      setDirty(true);
    },
    setDirty,
    setAttempted,
    setList,
    setApiErrors,
    /** Edits `route` as now stored (after a conflict, the version saved elsewhere). */
    load(route: Route) {
      setDraft(draftOf(route));
      setTemplateText(templateTextOf(route.template));
      setNoiseForm(noiseFormOf(route));
    },
    /** The route was deleted elsewhere: saving creates it again. */
    detach() {
      setEditingId(null);
      setIdTouched(true);
    },
    /** The route to save, with `filter` as its filter; `stored` keeps fields the form omits. */
    routeOf(filter: FilterNode, groupId: string, stored: Route | undefined): Route {
      return withNoiseOptions(
        withTemplate(routeFromDraft(draft, filter, groupId, stored), template),
        noiseOptionsOf(noiseForm).options,
      );
    },
  };
}

/** The draft model {@link useRouteDraft} answers. */
export type DraftModel = ReturnType<typeof useRouteDraft>;
