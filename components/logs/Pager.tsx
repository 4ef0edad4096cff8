import { pageHref } from "./href.ts";
import { LINK } from "./ui.ts";

/** The links between cursor pages: back to the newest, and on to the next page. */
export function Pager(props: {
  path: string;
  filters: Readonly<Record<string, string | undefined>>;
  next?: string;
  paged: boolean;
}) {
  if (props.next === undefined && !props.paged) return null;
  return (
    <nav aria-label="Pages" class="mt-4 flex flex-wrap gap-4 text-sm">
      {props.paged && <a class={LINK} href={pageHref(props.path, props.filters)}>Newest</a>}
      {props.next !== undefined && (
        <a class={LINK} href={pageHref(props.path, props.filters, props.next)} rel="next">
          Next page
        </a>
      )}
    </nav>
  );
}
