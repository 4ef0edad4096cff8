/** Suggestions the route editor's inputs offer: event kinds, their actions, sample paths. */
import { EVENT_CATALOG } from "../../../lib/console/event_catalog.ts";
import { actionListId } from "../tree/EventLeaf.tsx";

/** The `<datalist>`s the event and field leaves refer to. */
export function EditorDatalists(props: { paths: string[] }) {
  return (
    <>
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
        {props.paths.map((path) => <option key={path} value={path} />)}
      </datalist>
    </>
  );
}
