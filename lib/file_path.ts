/**
 * File path helpers that do not import `node:path`, whose import loads Node's compatibility
 * layer and lengthens every start.
 */

/** The folder of a file path (`.` for a bare file name), on POSIX or Windows. */
export function folderOf(path: string): string {
  const end = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return end < 0 ? "." : end === 0 ? path[0] : path.slice(0, end);
}
