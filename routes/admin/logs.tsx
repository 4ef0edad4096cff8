import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import { define } from "../../lib/state.ts";

/** The console's logs tab. */
export default define.page(function LogsPage() {
  return (
    <ConsoleLayout active="/admin/logs" title="Logs">
      <p class="text-slate-600">Nothing to show yet.</p>
    </ConsoleLayout>
  );
});
