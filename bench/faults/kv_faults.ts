/**
 * Store faults for the fault suite: makes a share of atomic commits fail the
 * way a busy SQLite file does ("database is locked"), before anything is
 * written. Everything that commits in this process is affected while it is on.
 */

/** Makes `share` (0..1) of atomic commits throw; returns the function that stops it. */
export function failCommits(share: number): () => void {
  const prototype = Deno.AtomicOperation.prototype;
  const commit = prototype.commit;
  prototype.commit = function (this: Deno.AtomicOperation) {
    if (Math.random() < share) {
      return Promise.reject(new TypeError("database is locked (injected)"));
    }
    return commit.call(this);
  };
  return () => {
    prototype.commit = commit;
  };
}
