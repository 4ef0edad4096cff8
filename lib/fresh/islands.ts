/**
 * The one list of islands and the one naming rule, used by the manifest
 * (server rendering) and the build (browser bundles), so every island that
 * renders also hydrates, wherever it lives below `islands/`.
 */
import { listModuleFiles } from "./module_files.ts";

/** The folder of island modules, below the project root. */
export const ISLANDS_DIR = "islands";

/** One island module. */
interface IslandFile {
  /** Path below `islands/`, e.g. `console/Foo.tsx`. */
  path: string;
  /** Its name in the manifest, the asset map and the page markup, e.g. `console_Foo`. */
  name: string;
}

/** The island name of a path below `islands/`: the extension dropped, `/` turned into `_`. */
export function islandName(path: string): string {
  return path.replace(/\.[jt]sx?$/, "").replaceAll("/", "_");
}

/**
 * The islands of the project at `root`, sorted by path. Throws when two
 * files would share a name (`a/b.tsx` and `a_b.tsx`, or `B.ts` and `B.tsx`),
 * since one of them could never hydrate.
 */
export async function listIslands(root: string): Promise<IslandFile[]> {
  const islands = (await listModuleFiles(root, ISLANDS_DIR)).map((path) => ({
    path,
    name: islandName(path),
  }));
  const byName = new Map<string, string>();
  for (const { path, name } of islands) {
    const other = byName.get(name);
    if (other !== undefined) {
      throw new Error(
        `${ISLANDS_DIR}/${other} and ${ISLANDS_DIR}/${path} would both be island "${name}": rename one`,
      );
    }
    byName.set(name, path);
  }
  return islands;
}
