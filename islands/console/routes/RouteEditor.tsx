import { useEffect, useMemo, useState } from "preact/hooks";
import { ConflictDialog } from "../../../components/routes/ConflictDialog.tsx";
import { EditorDatalists } from "../../../components/routes/editor/EditorDatalists.tsx";
import { EditorHeader } from "../../../components/routes/editor/EditorHeader.tsx";
import { FilterPanel } from "../../../components/routes/editor/FilterPanel.tsx";
import { FragmentDeleteDialog } from "../../../components/routes/editor/FragmentDeleteDialog.tsx";
import { RouteFields } from "../../../components/routes/editor/RouteFields.tsx";
import { useExplanation } from "../../../components/routes/editor/use_explanation.ts";
import { useFilterTree } from "../../../components/routes/editor/use_filter_tree.ts";
import { useFocusAfter } from "../../../components/routes/editor/use_focus_after.ts";
import { useFragments } from "../../../components/routes/editor/use_fragments.ts";
import { useRouteDraft } from "../../../components/routes/editor/use_route_draft.ts";
import { useRouteSave } from "../../../components/routes/editor/use_route_save.ts";
import { useSample } from "../../../components/routes/editor/use_sample.ts";
import { FragmentsPanel } from "../../../components/routes/FragmentsPanel.tsx";
import { MessagePreview } from "../../../components/routes/MessagePreview.tsx";
import { NoiseEditor } from "../../../components/routes/NoiseEditor.tsx";
import { SamplePanel } from "../../../components/routes/SamplePanel.tsx";
import { type Status, StatusToast } from "../../../components/routes/StatusToast.tsx";
import { TargetsEditor } from "../../../components/routes/TargetsEditor.tsx";
import { TemplateEditor } from "../../../components/routes/TemplateEditor.tsx";
import { nodeLabel } from "../../../components/routes/tree/node_label.ts";
import type { TreeApi } from "../../../components/routes/tree/tree_api.ts";
import { Panel } from "../../../components/routes/ui.tsx";
import { locate } from "../../../lib/console/filter_tree.ts";
import { samplePaths } from "../../../lib/console/sample_paths.ts";
import { SAMPLES } from "../../../lib/console/samples.ts";
import type { TargetRef } from "../../../lib/target_ref.ts";
import type { Fragment, Platform, Route } from "../../../lib/types.ts";

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
  /** Whether this instance can post to each platform (a bot token is set). */
  platforms: Record<Platform, boolean>;
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

/**
 * The route editor: name, switches, targets and the filter tree, explained live against a
 * sample event (every node shows whether it matched and why, computed in the browser with the
 * matcher's own code and confirmed by the API's test-match), with the group's fragments and a
 * JSON view that stays in sync. Saving sends the group's routes with `If-Match`; a 409 shows
 * what changed elsewhere and offers reload or overwrite. The state lives in the hooks of
 * `components/routes/editor/`; this island lays out their sections.
 */
export default function RouteEditor(props: Props) {
  const readOnly = !props.canEdit;
  const focusAfter = useFocusAfter();
  const [status, setStatus] = useState<Status | null>(
    props.justSaved ? { text: "Route saved", tone: "ok" } : null,
  );
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const draft = useRouteDraft(props.routes, props.etag, props.routeId);
  const tree = useFilterTree(draft.original, {
    attempted: draft.attempted,
    onEdit: () => draft.setDirty(true),
    focusAfter,
  });
  const sample = useSample(props.group.id, props, setStatus);
  const { explained, server } = useExplanation(tree, sample.event, sample.sample.text.length);
  const paths = useMemo(() => samplePaths(sample.parsed.payload), [sample.parsed.payload]);
  const fragments = useFragments(
    props.group.id,
    { items: props.fragments, etag: props.fragmentsEtag },
    tree,
    setStatus,
  );
  const saving = useRouteSave({
    groupId: props.group.id,
    readOnly,
    draft,
    tree,
    sample: sample.sample,
    onStatus: setStatus,
    focusAfter,
  });

  const event = sample.event;
  const api: TreeApi = {
    ...tree.rowApi(),
    verdicts: explained?.ok ? explained.byNode : null,
    readOnly,
    sampleEvent: event ? event.action ? `${event.kind}.${event.action}` : event.kind : null,
    saveAsFragment: (id) => {
      tree.setSelected(id);
      focusAfter("fragment-name");
    },
  };
  const selectedNode = tree.selected ? locate(tree.tree, tree.selected)?.node : undefined;
  const { editingId } = draft;

  return (
    <div data-ready={ready}>
      <EditorDatalists paths={paths} />
      <EditorHeader
        group={props.group}
        title={editingId === null ? null : draft.draft.name || editingId}
        dirty={draft.dirty}
        readOnly={readOnly}
        saving={saving.saving}
        onSave={saving.save}
      />

      <div class="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_26rem]">
        <div class="flex min-w-0 flex-col gap-6">
          <RouteFields
            draft={draft.draft}
            problems={draft.problems}
            creating={editingId === null}
            readOnly={readOnly}
            onChange={draft.change}
            onIdTyped={draft.touchId}
          />
          <Panel title="Targets" headingId="targets-heading">
            <TargetsEditor
              targets={draft.draft.targets}
              roleIds={draft.draft.roleIds}
              problems={draft.problems}
              allowed={props.allowedTargets}
              platforms={props.platforms}
              readOnly={readOnly}
              onTargets={(targets, focus) => {
                draft.change({ targets });
                if (focus) focusAfter(focus);
              }}
              onRoleIds={(roleIds) => draft.change({ roleIds })}
            />
          </Panel>
          <FilterPanel
            tree={tree}
            api={api}
            explained={explained}
            server={server}
            sample={{ error: sample.parsed.error, loading: sample.sample.loading }}
            route={draft.draft}
            readOnly={readOnly}
          />
          <TemplateEditor
            text={draft.templateText}
            readOnly={readOnly}
            onText={draft.setTemplateText}
          />
          <NoiseEditor form={draft.noiseForm} readOnly={readOnly} onForm={draft.setNoiseForm} />
        </div>

        <aside class="flex min-w-0 flex-col gap-6" aria-label="Sample event and fragments">
          <Panel title="Sample event" headingId="sample-heading">
            <SamplePanel
              samples={SAMPLES}
              recent={props.recentEvents}
              source={sample.sample.source}
              text={sample.sample.text}
              kind={sample.sample.kind}
              action={sample.sample.action}
              parseError={sample.parsed.error}
              loading={sample.sample.loading}
              onSource={sample.choose}
              onText={sample.paste}
              onKind={sample.setKind}
              onAction={sample.setAction}
            />
          </Panel>
          <Panel title="Fragments" headingId="fragments-heading">
            <FragmentsPanel
              fragments={fragments.items}
              insertInto={fragments.insertion?.label ?? "—"}
              refusals={fragments.refusals}
              selection={selectedNode ? nodeLabel(selectedNode) : null}
              name={fragments.name}
              nameProblem={fragments.nameProblem}
              busy={fragments.busy}
              readOnly={readOnly}
              onName={fragments.setName}
              onSave={fragments.save}
              onInsert={fragments.insert}
              onDelete={fragments.setDeleting}
            />
          </Panel>
          <Panel title="Message preview" headingId="preview-heading">
            <MessagePreview event={event} roleIds={draft.draft.roleIds} template={draft.template} />
          </Panel>
        </aside>
      </div>

      <FragmentDeleteDialog
        fragment={fragments.deleting}
        onCancel={() => fragments.setDeleting(null)}
        onDelete={fragments.remove}
      />
      <ConflictDialog
        diff={saving.conflict?.diff ?? null}
        reloadHint="Reload loads the current version of this route (your edits are dropped). Overwrite saves your version of this route; their other changes are kept."
        onReload={saving.reload}
        onOverwrite={saving.overwrite}
        onDismiss={saving.dismissConflict}
        onCancel={saving.dismissConflict}
      />
      <StatusToast status={status} onDismiss={() => setStatus(null)} />
    </div>
  );
}
