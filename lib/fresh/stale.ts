/**
 * Whether the built assets are missing or older than any of their inputs (the folders whose
 * files can change the bundles or the stylesheet), from file times alone and without
 * `node:path`. Synchronous, so that `deno task start` can check it while its modules are
 * evaluated, before the server's own modules run (see start_build.ts).
 */
import { ASSET_MAP_FILE, BUILD_DIR } from "./assets.ts";

function mtimeOf(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch {
    return null;
  }
}

/** True when the asset map under `root` is missing or any file of `inputs` is newer. */
export function buildIsStale(root: string, inputs: readonly string[]): boolean {
  const builtAt = mtimeOf(`${root}/${BUILD_DIR}/${ASSET_MAP_FILE}`)?.mtime?.getTime();
  if (builtAt === undefined) return true;
  const newer = (path: string): boolean => {
    const info = mtimeOf(path);
    if (!info) return false;
    if (info.isFile) return (info.mtime?.getTime() ?? 0) > builtAt;
    for (const entry of Deno.readDirSync(path)) {
      if (newer(`${path}/${entry.name}`)) return true;
    }
    return false;
  };
  return inputs.some((input) => newer(`${root}/${input}`));
}
