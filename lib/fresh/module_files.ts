/** Listing the module files of a project folder (`routes/`, `islands/`). */
import { join, relative } from "node:path";

const MODULE_FILE = /\.[jt]sx?$/;
const TEST_FILE = /_test\.[jt]sx?$/;

/**
 * The module files below `root/folder`, recursively, as sorted paths relative
 * to that folder with `/` separators (`console/Foo.tsx`); test files are
 * left out, and a missing folder has none.
 */
export async function listModuleFiles(root: string, folder: string): Promise<string[]> {
  const base = join(root, folder);
  const files: string[] = [];
  const walk = async (dir: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (MODULE_FILE.test(entry.name) && !TEST_FILE.test(entry.name)) {
        files.push(relative(base, path).replaceAll("\\", "/"));
      }
    }
  };
  await walk(base);
  return files.sort();
}
