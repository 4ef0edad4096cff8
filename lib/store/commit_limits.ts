/**
 * The per-commit limits every atomic write of the store keeps: the smallest of the backends it
 * runs on. A `denokv` server (KV Connect) refuses a commit with more than 10 checks; Deno KV
 * allows 1,000 mutations and 800 KiB of keys and values per commit.
 */

/** Most checks one commit holds. */
export const MAX_CHECKS_PER_COMMIT = 10;
