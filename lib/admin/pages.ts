/**
 * Cursor pages over time-ordered records (ulid-prefixed ids): several newest-first sources
 * are merged, filtered, and cut to a page. A page stops after a bounded number of records was
 * examined, so a rare filter cannot make one request read everything; the cursor then points
 * past what was examined, and the next page continues from there.
 */
import { HttpError } from "../fresh/mod.ts";
import { encodeUlidTime, ULID_TIME_MAX } from "../ulid.ts";

/** Newest-first records whose ids are below `below` (exclusive; none: from the newest). */
export type Source<T> = (below: string | undefined) => AsyncIterable<T>;

/** A page, newest first; `cursor` fetches the next one. */
export interface Page<T> {
  items: T[];
  cursor?: string;
}

/** How to cut a page. */
interface PageOptions<T> {
  idOf(item: T): string;
  keep(item: T): boolean;
  limit: number;
  /** The client's cursor: ids below it. */
  cursor?: string;
  /** Unix milliseconds, inclusive bounds on the time in the id. */
  from?: number;
  to?: number;
}

/** The page part of an API query: its size, cursor and time bounds. */
interface PageQuery {
  limit?: number;
  cursor?: string;
  from?: number;
  to?: number;
}

/**
 * Refuses (400 `Invalid cursor`) a client's cursor that no page could have given (`isPageId`:
 * the format of the ids the page is cut from), rather than answering the first page.
 */
export function requireCursor(
  cursor: string | undefined,
  isPageId: (id: string) => boolean,
): void {
  if (cursor !== undefined && !isPageId(cursor)) throw new HttpError(400, "Invalid cursor");
}

/** Records a page holds when the query gives no limit. */
const DEFAULT_LIMIT = 50;

/** How an API query cuts its page: its limit ({@link DEFAULT_LIMIT} when none), cursor and bounds. */
export function pageWindow(
  query: PageQuery,
): Pick<PageOptions<unknown>, "limit" | "cursor" | "from" | "to"> {
  return {
    limit: query.limit ?? DEFAULT_LIMIT,
    cursor: query.cursor,
    from: query.from,
    to: query.to,
  };
}

/** Most records one page examines. */
const SCAN_BUDGET = 2000;

/** The smallest id of a millisecond (ulid time part, then the lowest random part). */
function idAtTime(at: number): string {
  return encodeUlidTime(Math.max(0, Math.min(at, ULID_TIME_MAX))) + "0".repeat(16);
}

function lowest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a < b ? a : b;
}

/** Merges the sources newest first and cuts one page (see the module comment). */
export async function collectPage<T>(
  sources: readonly Source<T>[],
  options: PageOptions<T>,
): Promise<Page<T>> {
  const below = lowest(
    options.cursor,
    options.to === undefined ? undefined : idAtTime(options.to + 1),
  );
  const floor = options.from === undefined ? undefined : idAtTime(options.from);
  const iterators = sources.map((source) => source(below)[Symbol.asyncIterator]());
  const heads = await Promise.all(iterators.map((iterator) => iterator.next()));
  const items: T[] = [];
  let examined = 0;
  let lastExamined: string | undefined;
  try {
    while (items.length < options.limit) {
      let pick = -1;
      heads.forEach((head, index) => {
        if (head.done) return;
        if (pick < 0 || options.idOf(head.value) > options.idOf(heads[pick].value as T)) {
          pick = index;
        }
      });
      if (pick < 0) return { items };
      const item = heads[pick].value as T;
      const id = options.idOf(item);
      if (floor !== undefined && id < floor) return { items };
      if (examined === SCAN_BUDGET) return { items, cursor: lastExamined };
      examined++;
      lastExamined = id;
      if (options.keep(item)) items.push(item);
      heads[pick] = await iterators[pick].next();
    }
    return { items, cursor: lastExamined };
  } finally {
    await Promise.all(iterators.map((iterator) => iterator.return?.()));
  }
}
