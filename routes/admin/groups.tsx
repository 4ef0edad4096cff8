import { ConsoleLayout } from "../../components/ConsoleLayout.tsx";
import { GroupTable } from "../../components/groups/GroupTable.tsx";
import { Notice } from "../../components/groups/Notice.tsx";
import CreateGroupForm from "../../islands/console/groups/CreateGroupForm.tsx";
import RejectedPanel from "../../islands/console/groups/RejectedPanel.tsx";
import { listGroupRows } from "../../lib/admin/group_pages.ts";
import { actorOf } from "../../lib/admin/guards.ts";
import { listGlobalRejections } from "../../lib/admin/rejections.ts";
import { principalOf } from "../../lib/auth/principal.ts";
import { page } from "../../lib/fresh/mod.ts";
import { isId } from "../../lib/ids.ts";
import { readConsoleFrame } from "../../lib/admin/console_frame.ts";
import { define } from "../../lib/state.ts";

/** The groups the person can see; a super admin creates groups here. */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const frame = await readConsoleFrame(ctx);
    if (frame.currentGroup !== undefined) {
      return ctx.redirect(`/admin/groups/${encodeURIComponent(frame.currentGroup)}`);
    }
    const deleted = ctx.url.searchParams.get("deleted");
    return page({
      rows: await listGroupRows(ctx.state.kv, principal),
      canCreate: principal.superAdmin,
      self: actorOf(principal),
      notice: isId("group", deleted) ? `Group ${deleted} was deleted.` : null,
      rejections: principal.superAdmin ? await listGlobalRejections(ctx.state.kv, principal) : null,
      frame,
    });
  },
});

/** The console's groups tab. */
export default define.page<typeof handler>(function GroupsPage({ data }) {
  return (
    <ConsoleLayout active="/admin/groups" title="Groups" {...data.frame}>
      <Notice text={data.notice} />
      <div class="flex flex-col gap-6">
        {data.canCreate && <CreateGroupForm self={data.self} />}
        <GroupTable rows={data.rows} />
        {data.rejections && (
          <RejectedPanel
            groupId={null}
            list={data.rejections}
            title="Rejected at the instance"
            intro="Requests to /webhook and to addresses that name no group, newest first. Each group's own refusals are on its page."
            headingId="rejected-title"
          />
        )}
      </div>
    </ConsoleLayout>
  );
});
