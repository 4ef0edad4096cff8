import { ConsoleLayout } from "../../../components/ConsoleLayout.tsx";
import { eventHref } from "../../../components/events/EventTable.tsx";
import { eventLabel, targetLabel } from "../../../components/logs/format.ts";
import { deliveryLogsHref, LogDetail } from "../../../components/logs/LogDetail.tsx";
import { CARD, LINK, MUTED, SECONDARY_BUTTON } from "../../../components/logs/ui.ts";
import RedeliverButton from "../../../islands/console/logs/RedeliverButton.tsx";
import { readConsoleFrame } from "../../../lib/admin/console_frame.ts";
import { getLog } from "../../../lib/admin/logs.ts";
import { principalOf } from "../../../lib/auth/principal.ts";
import { canEditRoutes } from "../../../lib/auth/principal.ts";
import { HttpError, page } from "../../../lib/fresh/mod.ts";
import { isId } from "../../../lib/ids.ts";
import { define } from "../../../lib/state.ts";

/** One send log as a page: what the drawer of the logs table shows, without JavaScript too. */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    if (!isId("sendLog", ctx.params.id)) throw new HttpError(400, "Malformed send log id");
    const log = await getLog(ctx.state.kv, principal, ctx.params.id);
    const failed = log.status === "failed" || log.status === "dead";
    const frame = await readConsoleFrame(ctx);
    return page({ log, canRedeliver: failed && canEditRoutes(principal, log.groupId), frame }, {
      headers: { "cache-control": "no-store" },
    });
  },
});

/** The page of one send log. */
export default define.page<typeof handler>(function LogPage({ data }) {
  const { log } = data;
  return (
    <ConsoleLayout active="/admin/logs" title="Send log" {...data.frame}>
      <p class="mb-4 text-sm">
        <a class={LINK} href="/admin/logs">← All send logs</a>
      </p>
      <section class={`${CARD} max-w-3xl p-4 sm:p-6`}>
        <h2 class="text-lg font-semibold break-all">{eventLabel(log)}</h2>
        <p class={`mb-4 text-sm ${MUTED}`}>{targetLabel(log.target)}</p>
        <LogDetail log={log} />
        <div class="mt-4 flex flex-wrap gap-2">
          {data.canRedeliver && <RedeliverButton deliveryId={log.deliveryId} />}
          <a class={SECONDARY_BUTTON} href={deliveryLogsHref(log.deliveryId)}>
            Every message of this delivery
          </a>
          <a class={SECONDARY_BUTTON} href={eventHref(log.groupId, log.eventId)}>
            Why each route fired or not
          </a>
        </div>
      </section>
    </ConsoleLayout>
  );
});
