/** Data together with the version it was read at: what versioned admin reads return. */

/**
 * Data read at a store version (a versionstamp; null when nothing is stored yet). The endpoint
 * wrapper (`endpoint.ts`) answers `data` as JSON with the version as its `ETag`, which a later
 * write sends back in `If-Match`.
 */
export class Versioned<T> {
  constructor(readonly data: T, readonly version: string | null) {}
}
