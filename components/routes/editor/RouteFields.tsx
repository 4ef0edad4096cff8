/** The route editor's "Route" panel: name, id, and the enabled and fallback switches. */
import { ID_ERROR, ID_PATTERN } from "../../../lib/model/route_rules.ts";
import type { RouteDraft } from "../../../lib/console/route_draft.ts";
import { FormField } from "../../forms/FormField.tsx";
import { FIELD, MUTED, Panel, Switch } from "../ui.tsx";

/** The route's own fields; `creating` while the route is not stored yet (its id can change). */
export function RouteFields(
  props: {
    draft: RouteDraft;
    problems: ReadonlyMap<string, string>;
    creating: boolean;
    readOnly: boolean;
    onChange: (change: Partial<RouteDraft>) => void;
    /** The id was typed: it no longer follows the name. */
    onIdTyped: () => void;
  },
) {
  const { draft, problems, readOnly, onChange } = props;
  return (
    <Panel title="Route" headingId="route-heading">
      <div class="flex flex-wrap gap-3">
        <FormField
          look={FIELD}
          box="flex min-w-48 flex-[2] flex-col gap-0.5"
          id="route-name"
          label="Name"
          value={draft.name}
          placeholder="Bug PRs to #dev"
          maxLength={100}
          disabled={readOnly}
          problem={problems.get("name")}
          onValue={(name) => onChange({ name })}
        />
        <FormField
          look={FIELD}
          box="flex min-w-40 flex-1 flex-col gap-0.5"
          id="route-id"
          label="Route id"
          mono
          value={draft.id}
          pattern={ID_PATTERN.source}
          title={ID_ERROR}
          readOnly={!props.creating}
          disabled={readOnly}
          problem={problems.get("id")}
          hint={props.creating ? "Made from the name; send logs name it." : "Fixed once created."}
          onValue={(id) => {
            props.onIdTyped();
            onChange({ id });
          }}
        />
      </div>
      <div class="mt-3 flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
        <Switch
          checked={draft.enabled}
          label="Enabled"
          showLabel
          id="route-enabled"
          disabled={readOnly}
          onChange={(enabled) => onChange({ enabled })}
        />
        <label class="flex items-center gap-2">
          <input
            id="route-fallback"
            type="checkbox"
            class="h-4 w-4 accent-indigo-600"
            checked={draft.fallback}
            disabled={readOnly}
            aria-describedby="route-fallback-hint"
            onChange={(event) => onChange({ fallback: event.currentTarget.checked })}
          />
          Fallback
        </label>
        <span id="route-fallback-hint" class={`text-xs ${MUTED}`}>
          A fallback route fires only when no other route of the group fired.
        </span>
      </div>
    </Panel>
  );
}
