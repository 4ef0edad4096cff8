import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import { define } from "../../lib/state.ts";

/** The console's audit tab. */
export default define.page(function AuditPage() {
  return (
    <ConsoleLayout active="/admin/audit" title="Audit">
      <p class="text-slate-600">Nothing to show yet.</p>
    </ConsoleLayout>
  );
});
