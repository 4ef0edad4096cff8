import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import { readConsoleFrame } from "../../lib/admin/console_frame.ts";
import { page } from "../../lib/fresh/mod.ts";
import { define } from "../../lib/state.ts";

/** The console's logs tab. */
export const handler = define.handlers({
  async GET(ctx) {
    return page({ frame: await readConsoleFrame(ctx) });
  },
});

export default define.page<typeof handler>(function LogsPage({ data }) {
  return (
    <ConsoleLayout active="/admin/logs" title="Logs" {...data.frame}>
      <p class="text-slate-600 dark:text-slate-400">Nothing to show yet.</p>
    </ConsoleLayout>
  );
});
