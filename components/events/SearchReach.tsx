import type { SearchReach } from "../../lib/admin/event_search.ts";
import { pageHref } from "../logs/href.ts";
import { LINK, MUTED } from "../logs/ui.ts";

function utc(at: number): string {
  return new Date(at).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/**
 * How far a page of the search looked (records, payloads, back to when) and, when it stopped at
 * its limits before it was full, the link that continues the search where it stopped.
 */
export function SearchReachNote(props: {
  reach: SearchReach;
  path: string;
  filters: Readonly<Record<string, string | undefined>>;
  next?: string;
}) {
  const { reach } = props;
  const payloads = reach.payloads > 0
    ? `, ${reach.payloads.toLocaleString("en")} payloads read` +
      (reach.skipped > 0 ? ` (${reach.skipped.toLocaleString("en")} could not be matched)` : "")
    : "";
  const back = reach.oldest === undefined ? "" : ` back to ${utc(reach.oldest)}`;
  return (
    <p data-testid="search-reach" class={`mb-4 text-sm ${MUTED}`}>
      Looked at {reach.events.toLocaleString("en")} events{back}
      {payloads}.
      {reach.partial && props.next !== undefined && (
        <>
          {" "}The search stopped at its limit for one page.{" "}
          <a class={LINK} href={pageHref(props.path, props.filters, props.next)} rel="next">
            Continue searching
          </a>
        </>
      )}
    </p>
  );
}
