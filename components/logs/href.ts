/** The address of a filtered page: `path` with the filters (and a cursor) as its query. */
export function pageHref(
  path: string,
  filters: Readonly<Record<string, string | undefined>>,
  cursor?: string,
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined) params.set(name, value);
  }
  if (cursor !== undefined) params.set("cursor", cursor);
  const query = params.toString();
  return query === "" ? path : `${path}?${query}`;
}
