import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import { define } from "../../lib/state.ts";

/** The console's groups tab. */
export default define.page(function GroupsPage() {
  return (
    <ConsoleLayout active="/admin/groups" title="Groups">
      <p class="text-slate-600">Nothing to show yet.</p>
    </ConsoleLayout>
  );
});
