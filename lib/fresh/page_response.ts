/** `page(data)`: what a handler returns to have its route's page rendered. */

/** Data for the route's page plus the response's status and headers. */
export interface PageResponse<Data> {
  data: Data;
  status?: number;
  headers?: HeadersInit;
}

/**
 * Has the route's page rendered (inside `_app`) with `data` as `props.data`,
 * answered with `init.status` (default 200) and `init.headers`:
 *
 * ```ts
 * export const handler = define.handlers({
 *   GET: (ctx) => page({ name: ctx.params.name }, { headers: { "cache-control": "no-store" } }),
 * });
 * export default define.page<typeof handler>(({ data }) => <h1>{data.name}</h1>);
 * ```
 */
export function page(): PageResponse<undefined>;
export function page<Data>(
  data: Data,
  init?: { status?: number; headers?: HeadersInit },
): PageResponse<Data>;
export function page<Data>(
  data?: Data,
  init?: { status?: number; headers?: HeadersInit },
): PageResponse<Data | undefined> {
  return { data, status: init?.status, headers: init?.headers };
}
