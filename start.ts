/**
 * `deno task start`: builds the console's assets first when their inputs changed since the
 * last build (start_build.ts, in a child process), then runs the server (main.ts)
 * in this process. With current assets the check reads only file times, so a start costs one
 * process, not two.
 */
import "./start_build.ts";
import "./main.ts";
