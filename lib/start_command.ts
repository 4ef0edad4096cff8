/**
 * The command that starts Switchyard in debug mode, written the way this process was started:
 * through `npx` (the npm package of Deno, as the README's first lines do) or with Deno
 * installed, with `PORT` when it is not the default, so a person can copy it as it is.
 */

/** The port Switchyard listens on when `PORT` is not set. */
const DEFAULT_PORT = 8000;

/** Whether this process runs the Deno that `npx` fetched (npm sets `npm_command=exec`). */
export function startedThroughNpx(
  env: Readonly<Record<string, string | undefined>>,
  execPath: string,
): boolean {
  return env.npm_command === "exec" || /[\\/]_npx[\\/]/.test(execPath);
}

/** `DEBUG_MODE=true [PORT=…] deno task start`, or the `npx` form of it. */
export function debugStartCommand(
  options: { port: number; npx: boolean; denoVersion: string },
): string {
  const port = options.port === DEFAULT_PORT ? "" : `PORT=${options.port} `;
  const task = options.npx ? `npx -y deno@${options.denoVersion} task -q start` : "deno task start";
  return `DEBUG_MODE=true ${port}${task}`;
}
