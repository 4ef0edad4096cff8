import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ConflictDialog } from "../../../components/routes/ConflictDialog.tsx";
import { Modal } from "../../../components/layout/Modal.tsx";
import { FragmentsPanel } from "../../../components/routes/FragmentsPanel.tsx";
import { JsonView } from "../../../components/routes/JsonView.tsx";
import { MessagePreview } from "../../../components/routes/MessagePreview.tsx";
import { editorHref } from "../../../components/routes/RouteRow.tsx";
import {
  PASTED,
  recentEventOf,
  recentSource,
  SamplePanel,
} from "../../../components/routes/SamplePanel.tsx";
import { type Status, StatusToast } from "../../../components/routes/StatusToast.tsx";
import { TargetsEditor } from "../../../components/routes/TargetsEditor.tsx";
import { NoiseEditor } from "../../../components/routes/NoiseEditor.tsx"; // noise control hook
import { noiseFormOf, noiseOptionsOf, withNoiseOptions } from "../../../lib/console/noise_form.ts"; // noise control hook
import {
  TemplateEditor,
  templateOf,
  templateTextOf,
  withTemplate,
} from "../../../components/routes/TemplateEditor.tsx";
import { actionListId } from "../../../components/routes/tree/EventLeaf.tsx";
import { nodeLabel, TreeEditor } from "../../../components/routes/tree/TreeEditor.tsx";
import type { TreeApi } from "../../../components/routes/tree/tree_api.ts";
import { VerdictSummary } from "../../../components/routes/VerdictSummary.tsx";
import {
  BUTTON,
  ERROR,
  INPUT,
  LABEL,
  LINK,
  MUTED,
  Panel,
  Switch,
} from "../../../components/routes/ui.tsx";
import {
  ApiError,
  getJson,
  getVersioned,
  postJson,
  putVersioned,
} from "../../../lib/console/admin_client.ts";
import { EVENT_CATALOG } from "../../../lib/console/event_catalog.ts";
import {
  canInsert,
  cloneNode,
  fromFilterNode,
  heightOf,
  insertNode,
  isGroup,
  leafCount,
  locate,
  MAX_DEPTH,
  MAX_LEAVES,
  NodeIds,
  toFilterNode,
  type TreeNode,
  TreeShapeError,
} from "../../../lib/console/filter_tree.ts";
import { diffRoutes, isEmptyDiff, type RouteDiff } from "../../../lib/console/route_diff.ts";
import {
  draftOf,
  draftProblems,
  fieldOfApiError,
  idFromName,
  newDraft,
  type RouteDraft,
  routeFromDraft,
} from "../../../lib/console/route_draft.ts";
import {
  hiddenCount,
  isShown,
  type ProblemVisibility,
  touchedKeys,
} from "../../../lib/console/problem_visibility.ts";
import { putRoute } from "../../../lib/console/route_list.ts";
import { samplePaths } from "../../../lib/console/sample_paths.ts";
import { inferEvent, pastedSampleKey, SAMPLES, sampleUrl } from "../../../lib/console/samples.ts";
import { checkTree, explainTree, type SampleEvent } from "../../../lib/console/tree_check.ts";
import { ID_ERROR, ID_PATTERN } from "../../../lib/model/route_rules.ts";
import type { TargetRef } from "../../../lib/target_ref.ts";
import type { FilterNode, Fragment, Route } from "../../../lib/types.ts";

interface Props {
  group: { id: string; name: string };
  routes: Route[];
  etag: string;
  /** The route edited; null for a new one. */
  routeId: string | null;
  fragments: Fragment[];
  fragmentsEtag: string;
  canEdit: boolean;
  allowedTargets: TargetRef[];
  /** Show "saved" once (the page was opened right after creating the route). */
  justSaved: boolean;
  /** The group's recent events, offered as samples. */
  recentEvents: { id: string; label: string }[];
  /** The recent event to explain against first; else the first bundled sample. */
  sampleEventId: string | null;
  /**
   * The bundled sample (or `pasted`: the payload kept in the browser's session) to explain
   * against first, when no recent event is named: the one chosen before the route was created.
   */
  sampleChoice?: string | null;
}

/** What the editor reads of `GET /admin/api/groups/:id/events/:eventId`. */
interface RecentEventDetail {
  event: { kind: string; action?: string };
  payload: Record<string, unknown> | null;
}

interface SampleState {
  source: string;
  text: string;
  kind: string;
  action: string;
  loading: boolean;
}

interface Conflict {
  diff: RouteDiff;
  current: Route[];
  etag: string;
}

const pretty = (node: FilterNode) => JSON.stringify(node, null, 2);
const EMPTY: FilterNode = { all: [] };
/** `focusAfter` value that focuses the first field marked invalid. */
const FIRST_INVALID = "[aria-invalid=true]";
/** How long the tree must stay unchanged before the server confirms the explanation. */
const CONFIRM_DELAY_MS = 300;

/** The sample first shown: the named recent event, the chosen sample, or the first bundled one. */
function initialSample(props: Pick<Props, "sampleEventId" | "sampleChoice">): SampleState {
  if (props.sampleEventId) {
    return {
      source: recentSource(props.sampleEventId),
      text: "",
      kind: "",
      action: "",
      loading: true,
    };
  }
  if (props.sampleChoice === PASTED) {
    return { source: PASTED, text: "", kind: "", action: "", loading: true };
  }
  const chosen = SAMPLES.find((entry) => entry.id === props.sampleChoice) ?? SAMPLES[0];
  return {
    source: chosen.id,
    text: "",
    kind: chosen.kind,
    action: chosen.action ?? "",
    loading: true,
  };
}

/** The query of the editor opened after creating a route: "saved", and the sample in use. */
function savedQuery(sample: SampleState): string {
  const query = new URLSearchParams({ saved: "1" });
  const eventId = recentEventOf(sample.source);
  if (eventId !== null) query.set("event", eventId);
  else query.set("sample", sample.source);
  return query.toString();
}

/** Keeps a pasted sample in the browser's session for the editor that opens next. */
function keepPastedSample(groupId: string, sample: SampleState) {
  try {
    const { text, kind, action } = sample;
    sessionStorage.setItem(pastedSampleKey(groupId), JSON.stringify({ text, kind, action }));
  } catch {
    // A full or disabled session storage: the editor opens with the first bundled sample.
  }
}

/**
 * The pasted sample {@link keepPastedSample} kept, or null. It stays in the session (a reload
 * of the page shows it again) until the next pasted sample of the group replaces it.
 */
function readPastedSample(groupId: string): { text: string; kind: string; action: string } | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(pastedSampleKey(groupId)) ?? "null");
    if (
      kept !== null && typeof kept === "object" && typeof kept.text === "string" &&
      typeof kept.kind === "string" && typeof kept.action === "string"
    ) return { text: kept.text, kind: kept.kind, action: kept.action };
  } catch {
    // Unreadable: fall back to the first bundled sample.
  }
  return null;
}

function treeOf(route: Route | undefined, ids: NodeIds): TreeNode {
  const node = route ? route.ast ?? { all: route.filters } : EMPTY;
  try {
    return fromFilterNode(node, ids);
  } catch {
    return fromFilterNode(EMPTY, ids);
  }
}

/**
 * The route editor: name, switches, targets and the filter tree, explained live against a
 * sample event (every node shows whether it matched and why, computed in the browser with the
 * matcher's own code and confirmed by the API's test-match), with the group's fragments and a
 * JSON view that stays in sync. Saving sends the group's routes with `If-Match`; a 409 shows
 * what changed elsewhere and offers reload or overwrite.
 */
export default function RouteEditor(props: Props) {
  const ids = useRef<NodeIds | null>(null);
  ids.current ??= new NodeIds();
  const original = props.routes.find((route) => route.id === props.routeId);
  const readOnly = !props.canEdit;
  const routesPath = `/admin/api/groups/${encodeURIComponent(props.group.id)}/routes`;
  const fragmentsPath = `/admin/api/groups/${encodeURIComponent(props.group.id)}/fragments`;

  const [draft, setDraft] = useState<RouteDraft>(() => original ? draftOf(original) : newDraft());
  const [idTouched, setIdTouched] = useState(original !== undefined);
  const [templateText, setTemplateText] = useState(() => templateTextOf(original?.template));
  const template = useMemo(() => templateOf(templateText), [templateText]);
  const [noiseForm, setNoiseForm] = useState(() => noiseFormOf(original)); // noise control hook
  const [tree, setTree] = useState<TreeNode>(() => treeOf(original, ids.current!));
  const treeRef = useRef(tree);
  const [jsonText, setJsonText] = useState(() => pretty(toFilterNode(tree)));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [list, setList] = useState({ routes: props.routes, etag: props.etag });
  const [editingId, setEditingId] = useState(props.routeId);
  const [selected, setSelected] = useState<string | null>(null);
  const [sample, setSample] = useState<SampleState>(() => initialSample(props));
  const [fragments, setFragments] = useState({
    items: props.fragments,
    etag: props.fragmentsEtag,
  });
  const [fragmentName, setFragmentName] = useState("");
  const [fragmentProblem, setFragmentProblem] = useState<string | null>(null);
  const [fragmentBusy, setFragmentBusy] = useState(false);
  const [deletingFragment, setDeletingFragment] = useState<Fragment | null>(null);
  const [status, setStatus] = useState<Status | null>(
    props.justSaved ? { text: "Route saved", tone: "ok" } : null,
  );
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [apiErrors, setApiErrors] = useState(new Map<string, string>());
  const [saving, setSaving] = useState(false);
  const [dirty, setDirty] = useState(false);
  const [serverCheck, setServerCheck] = useState<
    { key: string; matched: boolean } | { key: string; error: string } | null
  >(null);
  const focusAfter = useRef<string | null>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  useEffect(() => {
    if (!focusAfter.current) return;
    const element = focusAfter.current === FIRST_INVALID
      ? document.querySelector(FIRST_INVALID)
      : document.getElementById(focusAfter.current);
    focusAfter.current = null;
    if (element instanceof HTMLElement) element.focus();
  });

  // A pasted sample the browser kept while the editor reloaded after creating the route.
  useEffect(() => {
    if (sample.source !== PASTED || !sample.loading) return;
    const kept = readPastedSample(props.group.id);
    setSample(
      kept ? { ...kept, source: PASTED, loading: false } : initialSample({
        sampleEventId: null,
      }),
    );
  }, []);

  // The sample: load a bundled one, or a recent event of the group, when chosen.
  useEffect(() => {
    if (sample.source === PASTED) return;
    const eventId = recentEventOf(sample.source);
    const chosen = SAMPLES.find((entry) => entry.id === sample.source);
    if (!chosen && eventId === null) return;
    let current = true;
    const loaded = eventId !== null
      ? getJson<RecentEventDetail>(
        `/admin/api/groups/${encodeURIComponent(props.group.id)}/events/${eventId}`,
      ).then(({ event, payload }) => {
        if (payload === null) throw new Error("its payload is past retention");
        return { payload, kind: event.kind, action: event.action };
      })
      : getJson<unknown>(sampleUrl(chosen!)).then((payload) => ({
        payload,
        kind: chosen!.kind,
        action: chosen!.action,
      }));
    loaded.then(
      ({ payload, kind, action }) => {
        if (!current) return;
        setSample({
          source: sample.source,
          text: JSON.stringify(payload, null, 2),
          kind,
          action: action ?? "",
          loading: false,
        });
      },
      (error) => {
        if (!current) return;
        setSample((state) => ({ ...state, loading: false }));
        setStatus({ text: `The sample could not be loaded: ${error.message}`, tone: "error" });
      },
    );
    return () => {
      current = false;
    };
  }, [sample.source]);

  const parsed = useMemo((): { payload: unknown; error: string | null } => {
    if (sample.loading) return { payload: undefined, error: null };
    if (sample.text.trim() === "") return { payload: undefined, error: "Paste a JSON payload." };
    try {
      const payload = JSON.parse(sample.text);
      if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
        return { payload: undefined, error: "The payload must be a JSON object." };
      }
      return { payload, error: null };
    } catch (error) {
      return { payload: undefined, error: `Not valid JSON: ${(error as Error).message}` };
    }
  }, [sample.text, sample.loading]);

  const sampleEvent = useMemo((): SampleEvent | null => {
    if (parsed.payload === undefined || sample.kind === "") return null;
    return {
      kind: sample.kind,
      action: sample.action === "" ? undefined : sample.action,
      payload: parsed.payload,
    };
  }, [parsed.payload, sample.kind, sample.action]);

  const issues = useMemo(() => checkTree(tree), [tree]);
  const explained = useMemo(
    () => sampleEvent ? explainTree(tree, issues, sampleEvent) : null,
    [tree, issues, sampleEvent],
  );
  const paths = useMemo(() => samplePaths(parsed.payload), [parsed.payload]);
  const node = useMemo(() => toFilterNode(tree), [tree]);

  // The server's word on the explanation, once the tree has settled.
  const checkKey = sampleEvent && issues.count === 0
    ? JSON.stringify([node, sampleEvent.kind, sampleEvent.action, sample.text.length])
    : null;
  useEffect(() => {
    if (!checkKey || !sampleEvent) return;
    let current = true;
    const timer = setTimeout(() => {
      const event = sampleEvent.action
        ? `${sampleEvent.kind}.${sampleEvent.action}`
        : sampleEvent.kind;
      postJson<{ matched: boolean }>("/admin/api/test-match", {
        node,
        event,
        payload: sampleEvent.payload,
      }).then(
        (answer) => current && setServerCheck({ key: checkKey, matched: answer.matched }),
        (error) => current && setServerCheck({ key: checkKey, error: (error as Error).message }),
      );
    }, CONFIRM_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [checkKey]);

  const takenIds = useMemo(
    () => new Set(list.routes.map((route) => route.id).filter((id) => id !== editingId)),
    [list.routes, editingId],
  );
  const [attempted, setAttempted] = useState(false);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const visibility: ProblemVisibility = { attempted, fresh, touched };
  const hiddenProblems = hiddenCount(visibility, issues);
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

  const changeDraft = (change: Partial<RouteDraft>, focus?: string) => {
    setDraft((current) => {
      const next = { ...current, ...change };
      if (!idTouched && change.name !== undefined && editingId === null) {
        next.id = idFromName(change.name, takenIds);
      }
      return next;
    });
    setApiErrors(new Map());
    setDirty(true);
    if (focus) focusAfter.current = focus;
  };

  const edit: TreeApi["edit"] = (change, focus) => {
    const next = change(treeRef.current, ids.current!);
    if (next === treeRef.current) return;
    treeRef.current = next;
    setTree(next);
    setJsonText(pretty(toFilterNode(next)));
    setJsonError(null);
    setDirty(true);
    const target = typeof focus === "function" ? focus() : focus;
    if (target) focusAfter.current = target;
  };

  const replaceTree = (next: TreeNode) => {
    treeRef.current = next;
    setTree(next);
    setSelected(null);
  };

  const onJson = (text: string) => {
    setJsonText(text);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      setJsonError(`Not valid JSON: ${(error as Error).message}`);
      return;
    }
    try {
      replaceTree(fromFilterNode(value, ids.current!));
      setJsonError(null);
      setDirty(true);
    } catch (error) {
      if (!(error instanceof TreeShapeError)) throw error;
      setJsonError(`Not a filter tree: ${error.message}`);
    }
  };

  const api: TreeApi = {
    root: tree,
    issues,
    verdicts: explained?.ok ? explained.byNode : null,
    selected,
    readOnly,
    sampleEvent: sampleEvent
      ? sampleEvent.action ? `${sampleEvent.kind}.${sampleEvent.action}` : sampleEvent.kind
      : null,
    edit,
    select: setSelected,
    shows: (nodeId, field) => isShown(visibility, nodeId, field),
    added: (nodeId) => setFresh((current) => new Set([...current, nodeId])),
    left: (nodeId, field) =>
      setTouched((current) => {
        const keys = touchedKeys(nodeId, field);
        return keys.every((key) => current.has(key)) ? current : new Set([...current, ...keys]);
      }),
    saveAsFragment: (id) => {
      setSelected(id);
      focusAfter.current = "fragment-name";
    },
  };

  // Where an inserted fragment goes: the selected group, next to the selected leaf, or the top.
  const insertion = useMemo(() => {
    const found = selected ? locate(tree, selected) : null;
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
    if (isGroup(tree) && tree.kind !== "not") {
      return { groupId: tree.id, index: undefined, label: "the top group" };
    }
    return null;
  }, [tree, selected]);

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
    return [fragment.id, canInsert(tree, insertion.groupId, candidate)];
  }));

  const insertFragment = (fragment: Fragment) => {
    const candidate = fragmentTrees.get(fragment.id);
    if (!candidate || !insertion) return;
    let focus: string | undefined;
    edit((root, nodeIds) => {
      const copy = cloneNode(candidate, nodeIds);
      focus = `${copy.id}-select`;
      return insertNode(root, insertion.groupId, copy, insertion.index);
    }, () => focus);
    setStatus({ text: `Inserted a copy of “${fragment.name}”`, tone: "ok" });
  };

  const writeFragments = async (items: Fragment[], done: string) => {
    setFragmentBusy(true);
    try {
      const etag = await putVersioned(fragmentsPath, { fragments: items }, fragments.etag);
      setFragments({ items, etag });
      setStatus({ text: done, tone: "ok" });
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const current = await getVersioned<{ fragments: Fragment[] }>(fragmentsPath).catch(() =>
          null
        );
        if (current) setFragments({ items: current.body.fragments, etag: current.etag });
        setStatus({
          text: "The fragments were changed elsewhere; the list is reloaded, try again.",
          tone: "error",
        });
      } else setStatus({ text: `Not saved: ${(error as Error).message}`, tone: "error" });
      return false;
    } finally {
      setFragmentBusy(false);
    }
  };

  const saveFragment = async () => {
    const found = selected ? locate(tree, selected) : null;
    const name = fragmentName.trim();
    if (!found) return setFragmentProblem("Select a node of the tree first.");
    if (name === "") return setFragmentProblem("required");
    if (name.length > 100) return setFragmentProblem("at most 100 characters");
    setFragmentProblem(null);
    const taken = new Set(fragments.items.map((fragment) => fragment.id));
    const fragment: Fragment = {
      id: idFromName(name, taken),
      groupId: props.group.id,
      name,
      node: toFilterNode(found.node),
    };
    if (await writeFragments([...fragments.items, fragment], `Saved fragment “${name}”`)) {
      setFragmentName("");
    }
  };

  const deleteFragment = async () => {
    const fragment = deletingFragment;
    setDeletingFragment(null);
    if (!fragment) return;
    await writeFragments(
      fragments.items.filter((item) => item.id !== fragment.id),
      `Deleted fragment “${fragment.name}”`,
    );
  };

  /** Saves the route into `base` (the group's routes as last read). */
  const saveOnto = useCallback(async (base: { routes: Route[]; etag: string }, retried = false) => {
    const stored = base.routes.find((route) => route.id === editingId);
    const route = withNoiseOptions( // noise control hook
      withTemplate(
        routeFromDraft(draft, toFilterNode(treeRef.current), props.group.id, stored),
        template,
      ),
      noiseOptionsOf(noiseForm).options,
    );
    const routes = stored
      ? putRoute(base.routes, route, editingId ?? undefined)
      : [...base.routes, route];
    setSaving(true);
    try {
      const etag = await putVersioned(routesPath, { routes }, base.etag);
      setDirty(false);
      if (editingId === null) {
        if (sample.source === PASTED) keepPastedSample(props.group.id, sample);
        location.replace(`${editorHref(props.group.id, route.id)}?${savedQuery(sample)}`);
        return;
      }
      setList({ routes, etag });
      setStatus({ text: "Route saved", tone: "ok" });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const current = await getVersioned<{ routes: Route[] }>(routesPath).catch(() => null);
        if (!current) {
          setStatus({
            text: "Not saved: the routes changed and could not be reloaded",
            tone: "error",
          });
          return;
        }
        const fresh = { routes: current.body.routes, etag: current.etag };
        const diff = diffRoutes(base.routes, fresh.routes);
        if (isEmptyDiff(diff) && !retried) return await saveOnto(fresh, true);
        setConflict({ diff, current: fresh.routes, etag: fresh.etag });
        return;
      }
      const index = routes.indexOf(route);
      const field = error instanceof ApiError && error.status === 400
        ? fieldOfApiError(error.message, index)
        : null;
      if (field) setApiErrors(new Map([[field.field, field.message]]));
      setStatus({ text: `Not saved: ${(error as Error).message}`, tone: "error" });
    } finally {
      setSaving(false);
    }
  }, [draft, template, noiseForm, editingId, props.group.id, routesPath, sample]);

  const save = () => {
    if (readOnly || saving) return;
    setAttempted(true);
    const count = allProblems.size + issues.count + noiseOptionsOf(noiseForm).problems.size; // noise control hook
    if (count > 0) {
      setStatus({
        text: `Not saved: fix the ${count} problem${
          count === 1 ? "" : "s"
        } marked in the form first.`,
        tone: "error",
      });
      focusAfter.current = FIRST_INVALID;
      return;
    }
    void saveOnto(list);
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

  const reload = () => {
    if (!conflict) return;
    const current = conflict.current.find((route) => route.id === editingId);
    setList({ routes: conflict.current, etag: conflict.etag });
    setConflict(null);
    if (editingId === null) {
      setStatus({
        text: "Reloaded the group's routes; save again to add this route.",
        tone: "info",
      });
      return;
    }
    if (!current) {
      setEditingId(null);
      setIdTouched(true);
      setStatus({
        text: "This route was deleted elsewhere; saving creates it again.",
        tone: "info",
      });
      return;
    }
    const next = treeOf(current, ids.current!);
    setDraft(draftOf(current));
    setTemplateText(templateTextOf(current.template));
    setNoiseForm(noiseFormOf(current)); // noise control hook
    replaceTree(next);
    setJsonText(pretty(toFilterNode(next)));
    setDirty(false);
    setStatus({ text: "Loaded the current version of this route.", tone: "info" });
  };

  const overwrite = () => {
    if (!conflict) return;
    const base = { routes: conflict.current, etag: conflict.etag };
    setConflict(null);
    void saveOnto(base, true);
  };

  const leaves = leafCount(tree);
  const depth = heightOf(tree);
  const nearLimit = leaves >= MAX_LEAVES - 8 || depth >= MAX_DEPTH - 1;
  const selectedNode = selected ? locate(tree, selected)?.node : undefined;
  const groupHref = `/admin/routes/${encodeURIComponent(props.group.id)}`;
  const serverAgrees = serverCheck && checkKey === serverCheck.key && explained?.ok
    ? "error" in serverCheck
      ? { text: `The server could not check it: ${serverCheck.error}`, ok: false }
      : serverCheck.matched === explained.matched
      ? { text: "The server's test-match agrees.", ok: true }
      : {
        text: `The server's test-match says it ${
          serverCheck.matched ? "matches" : "does not match"
        }.`,
        ok: false,
      }
    : null;

  return (
    <div data-ready={ready}>
      <datalist id="event-kinds">
        {EVENT_CATALOG.map((entry) => <option key={entry.kind} value={entry.kind} />)}
        <option value="*" />
      </datalist>
      {EVENT_CATALOG.filter((entry) => entry.actions.length > 0).map((entry) => (
        <datalist key={entry.kind} id={actionListId(entry.kind)}>
          {entry.actions.map((action) => <option key={action} value={action} />)}
          <option value="*" />
        </datalist>
      ))}
      <datalist id="sample-paths">
        {paths.map((path) => <option key={path} value={path} />)}
      </datalist>

      <div class="mb-4 flex flex-wrap items-center justify-between gap-3">
        <nav aria-label="Breadcrumb" class={`text-sm ${MUTED}`}>
          <a class={LINK} href="/admin/routes">Routes</a>
          <span aria-hidden="true" class="mx-1">/</span>
          <a class={LINK} href={groupHref}>{props.group.name}</a>
          <span aria-hidden="true" class="mx-1">/</span>
          <span aria-current="page">
            {editingId === null ? "New route" : draft.name || editingId}
          </span>
        </nav>
        <div class="flex items-center gap-3">
          {dirty && !readOnly && (
            <span class={`text-xs ${MUTED}`} data-testid="unsaved">Unsaved changes</span>
          )}
          {readOnly
            ? <span class={`text-sm ${MUTED}`}>Read only: viewers cannot change routes.</span>
            : (
              <button
                type="button"
                class={BUTTON.primary}
                onClick={save}
                disabled={saving}
                aria-keyshortcuts="Control+S"
                title="Save (Ctrl+S)"
              >
                {saving ? "Saving…" : editingId === null ? "Create route" : "Save route"}
              </button>
            )}
        </div>
      </div>

      <div class="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_26rem]">
        <div class="flex min-w-0 flex-col gap-6">
          <Panel title="Route" headingId="route-heading">
            <div class="flex flex-wrap gap-3">
              <div class="flex min-w-48 flex-[2] flex-col gap-0.5">
                <label for="route-name" class={LABEL}>Name</label>
                <input
                  id="route-name"
                  class={INPUT}
                  value={draft.name}
                  placeholder="Bug PRs to #dev"
                  maxLength={100}
                  disabled={readOnly}
                  aria-invalid={problems.has("name") ? true : undefined}
                  aria-describedby={problems.has("name") ? "route-name-error" : undefined}
                  onInput={(event) => changeDraft({ name: event.currentTarget.value })}
                />
                {problems.has("name") && (
                  <span id="route-name-error" class={ERROR}>{problems.get("name")}</span>
                )}
              </div>
              <div class="flex min-w-40 flex-1 flex-col gap-0.5">
                <label for="route-id" class={LABEL}>Route id</label>
                <input
                  id="route-id"
                  class={`${INPUT} font-mono`}
                  value={draft.id}
                  pattern={ID_PATTERN.source}
                  title={ID_ERROR}
                  readOnly={editingId !== null}
                  disabled={readOnly}
                  aria-invalid={problems.has("id") ? true : undefined}
                  aria-describedby={problems.has("id") ? "route-id-error" : "route-id-hint"}
                  onInput={(event) => {
                    setIdTouched(true);
                    changeDraft({ id: event.currentTarget.value });
                  }}
                />
                {problems.has("id")
                  ? <span id="route-id-error" class={ERROR}>{problems.get("id")}</span>
                  : (
                    <span id="route-id-hint" class={`text-xs ${MUTED}`}>
                      {editingId === null
                        ? "Made from the name; send logs name it."
                        : "Fixed once created."}
                    </span>
                  )}
              </div>
            </div>
            <div class="mt-3 flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
              <Switch
                checked={draft.enabled}
                label="Enabled"
                showLabel
                id="route-enabled"
                disabled={readOnly}
                onChange={(enabled) => changeDraft({ enabled })}
              />
              <label class="flex items-center gap-2">
                <input
                  id="route-fallback"
                  type="checkbox"
                  class="h-4 w-4 accent-indigo-600"
                  checked={draft.fallback}
                  disabled={readOnly}
                  aria-describedby="route-fallback-hint"
                  onChange={(event) => changeDraft({ fallback: event.currentTarget.checked })}
                />
                Fallback
              </label>
              <span id="route-fallback-hint" class={`text-xs ${MUTED}`}>
                A fallback route fires only when no other route of the group fired.
              </span>
            </div>
          </Panel>

          <Panel title="Targets" headingId="targets-heading">
            <TargetsEditor
              targets={draft.targets}
              roleIds={draft.roleIds}
              problems={problems}
              allowed={props.allowedTargets}
              readOnly={readOnly}
              onTargets={(targets, focus) => changeDraft({ targets }, focus)}
              onRoleIds={(roleIds) => changeDraft({ roleIds })}
            />
          </Panel>

          <Panel
            title="Filter"
            headingId="filter-heading"
            actions={
              <p
                data-testid="limits"
                class={`text-xs ${
                  nearLimit ? "font-semibold text-amber-800 dark:text-amber-200" : MUTED
                }`}
              >
                {leaves} of {MAX_LEAVES} filters · {depth} of {MAX_DEPTH} levels
              </p>
            }
          >
            <VerdictSummary
              explained={explained}
              sampleError={parsed.error}
              loading={sample.loading}
              enabled={draft.enabled}
              fallback={draft.fallback}
              server={serverAgrees}
              problems={issues.count - hiddenProblems}
              incomplete={hiddenProblems}
            />
            <div class="mt-3">
              <TreeEditor api={api} />
            </div>
            <details class="mt-4" open={jsonError !== null}>
              <summary class={`cursor-pointer text-sm font-medium ${LINK} w-fit`}>JSON</summary>
              <div class="mt-2">
                <JsonView text={jsonText} error={jsonError} readOnly={readOnly} onText={onJson} />
              </div>
            </details>
          </Panel>

          <TemplateEditor
            text={templateText}
            readOnly={readOnly}
            onText={(text) => {
              setTemplateText(text);
              setDirty(true);
            }}
          />
          <NoiseEditor
            form={noiseForm}
            readOnly={readOnly}
            onForm={(form) => {
              setNoiseForm(form);
              setDirty(true);
            }}
          />
        </div>

        <aside class="flex min-w-0 flex-col gap-6" aria-label="Sample event and fragments">
          <Panel title="Sample event" headingId="sample-heading">
            <SamplePanel
              samples={SAMPLES}
              recent={props.recentEvents}
              source={sample.source}
              text={sample.text}
              kind={sample.kind}
              action={sample.action}
              parseError={parsed.error}
              loading={sample.loading}
              onSource={(source) =>
                setSample((state) =>
                  source === PASTED ? { ...state, source } : { ...state, source, loading: true }
                )}
              onText={(text) => {
                let inferred: { kind: string; action?: string } | null = null;
                try {
                  inferred = inferEvent(JSON.parse(text));
                } catch {
                  inferred = null;
                }
                setSample((state) => ({
                  ...state,
                  source: PASTED,
                  text,
                  kind: inferred?.kind ?? state.kind,
                  action: inferred ? inferred.action ?? "" : state.action,
                }));
              }}
              onKind={(kind) => setSample((state) => ({ ...state, kind }))}
              onAction={(action) => setSample((state) => ({ ...state, action }))}
            />
          </Panel>
          <Panel title="Fragments" headingId="fragments-heading">
            <FragmentsPanel
              fragments={fragments.items}
              insertInto={insertion?.label ?? "—"}
              refusals={refusals}
              selection={selectedNode ? nodeLabel(selectedNode) : null}
              name={fragmentName}
              nameProblem={fragmentProblem}
              busy={fragmentBusy}
              readOnly={readOnly}
              onName={setFragmentName}
              onSave={saveFragment}
              onInsert={insertFragment}
              onDelete={setDeletingFragment}
            />
          </Panel>
          <Panel title="Message preview" headingId="preview-heading">
            <MessagePreview event={sampleEvent} roleIds={draft.roleIds} template={template} />
          </Panel>
        </aside>
      </div>

      <Modal
        open={deletingFragment !== null}
        title="Delete this fragment?"
        onClose={() => setDeletingFragment(null)}
        testId="confirm-fragment-delete"
        role="alertdialog"
      >
        <p class={`mt-2 text-sm ${MUTED}`}>
          “{deletingFragment?.name}” is removed from the group. Routes that used it keep their copy.
        </p>
        <div class="mt-5 flex justify-end gap-2">
          <button
            type="button"
            class={BUTTON.secondary}
            onClick={() => setDeletingFragment(null)}
            autofocus
          >
            Cancel
          </button>
          <button type="button" class={BUTTON.danger} onClick={deleteFragment}>
            Delete fragment
          </button>
        </div>
      </Modal>
      <ConflictDialog
        diff={conflict?.diff ?? null}
        reloadHint="Reload loads the current version of this route (your edits are dropped). Overwrite saves your version of this route; their other changes are kept."
        onReload={reload}
        onOverwrite={overwrite}
        onDismiss={() => setConflict(null)}
        onCancel={() => setConflict(null)}
      />
      <StatusToast status={status} onDismiss={() => setStatus(null)} />
    </div>
  );
}
