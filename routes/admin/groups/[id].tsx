import { ConsoleLayout } from "../../../components/ConsoleLayout.tsx";
import { Notice } from "../../../components/groups/Notice.tsx";
import { GroupSummary } from "../../../components/groups/GroupSummary.tsx";
import { WebhookSetup } from "../../../components/groups/WebhookSetup.tsx";
import GroupSettings from "../../../islands/console/groups/GroupSettings.tsx";
import InvitesPanel from "../../../islands/console/groups/InvitesPanel.tsx";
import MembersEditor from "../../../islands/console/groups/MembersEditor.tsx";
import RejectedPanel from "../../../islands/console/groups/RejectedPanel.tsx";
import TestEventPanel from "../../../islands/console/groups/TestEventPanel.tsx";
import TargetsPanel from "../../../islands/console/groups/TargetsPanel.tsx";
import WebhookPanel from "../../../islands/console/groups/WebhookPanel.tsx";
import { etagOf } from "../../../lib/admin/endpoint.ts";
import { readConsoleFrame } from "../../../lib/admin/console_frame.ts";
import { readGroupDetail } from "../../../lib/admin/group_pages.ts";
import { listGroupRejections } from "../../../lib/admin/rejections.ts";
import { listGroupProblems } from "../../../lib/admin/route_problems.ts";
import { RouteProblems } from "../../../components/problems/RouteProblems.tsx";
import { canEditRoutes, principalOf } from "../../../lib/auth/principal.ts";
import { SAMPLES } from "../../../lib/console/samples.ts";
import { page } from "../../../lib/fresh/mod.ts";
import { requireId } from "../../../lib/http_guards.ts";
import { define } from "../../../lib/state.ts";
import { listGroupReminders } from "../../../lib/admin/reminders.ts";
import { RemindersCard } from "../../../components/reminders/RemindersCard.tsx";

const NOTICES: Record<string, string> = {
  created: "Group created. Next: generate its webhook secret below, then add a route.",
  renamed: "Saved.",
  "reminder-added": "Reminder added.",
  "reminder-removed": "Reminder removed.",
};

/** One group: members, invites, webhook and allowed chat targets, as the person may see them. */
export const handler = define.handlers({
  async GET(ctx) {
    const principal = principalOf(ctx);
    const groupId = requireId("group", ctx.params.id, "id");
    const [detail, frame] = await Promise.all([
      readGroupDetail(ctx.state.kv, ctx.state.config, principal, groupId),
      readConsoleFrame(ctx),
    ]);
    const canEdit = canEditRoutes(principal, groupId);
    const [rejections, { problems }, { reminders }] = await Promise.all([
      canEdit ? listGroupRejections(ctx.state.kv, principal, groupId) : null,
      listGroupProblems(ctx.state.kv, ctx.state.config, principal, groupId),
      listGroupReminders(ctx.state.kv, principal, groupId),
    ]);
    const notice = ctx.url.searchParams.has("created")
      ? NOTICES.created
      : Object.hasOwn(NOTICES, ctx.url.searchParams.get("notice") ?? "")
      ? NOTICES[ctx.url.searchParams.get("notice")!]
      : null;
    const csrf = principal.csrfToken;
    return page({ ...detail, notice, frame, canEdit, rejections, problems, reminders, csrf });
  },
});

/** The group page. */
export default define.page<typeof handler>(function GroupPage({ data }) {
  const { group } = data;
  const etag = etagOf(data.tag);
  return (
    <ConsoleLayout
      active="/admin/groups"
      title={group.name}
      {...data.frame}
      currentGroup={group.id}
    >
      <Notice text={data.notice} />
      <RouteProblems
        groups={[{ groupId: group.id, groupName: group.name, problems: data.problems }]}
      />
      <GroupSummary
        group={group}
        role={data.role}
        sections={[
          ["members-title", "Members"],
          ...(data.invites ? [["invites-title", "Invites"] as const] : []),
          ...(data.webhook ? [["webhook-title", "Webhook"] as const] : []),
          ...(data.canEdit ? [["test-event-title", "Test event"] as const] : []),
          ...(data.rejections ? [["rejected-title", "Rejected"] as const] : []),
          ["targets-title", "Chat targets"],
          ["reminders-heading", "Review reminders"],
          ...(data.canOwn ? [["settings-title", "Name and id"] as const] : []),
        ]}
      />
      <div class="flex flex-col gap-6">
        <MembersEditor
          group={group}
          etag={etag}
          canEdit={data.canOwn}
          selfId={data.self.userId}
        />
        {data.invites && (
          <InvitesPanel groupId={group.id} invites={data.invites} self={data.self} />
        )}
        {data.webhook && <WebhookPanel groupId={group.id} webhook={data.webhook} />}
        {data.webhook && <WebhookSetup url={data.webhook.url} />}
        {data.canEdit && (
          <TestEventPanel
            groupId={group.id}
            samples={SAMPLES.map(({ id, label }) => ({ id, label }))}
            headingId="test-event-title"
          />
        )}
        {data.rejections && (
          <RejectedPanel
            groupId={group.id}
            list={data.rejections}
            title="Rejected requests"
            intro="Webhook requests this group's address refused, newest first, with what to change."
            headingId="rejected-title"
          />
        )}
        <TargetsPanel
          groupId={group.id}
          targets={data.targets.targets}
          refused={data.targets.refused}
          etag={etagOf(data.targets.tag)}
          canEdit={data.superAdmin}
        />
        <RemindersCard
          reminders={data.reminders}
          csrf={data.csrf}
          group={{
            id: group.id,
            targets: data.targets.targets.map((entry) =>
              entry.target
            ),
          }}
          canEdit={data.canEdit}
        />
        {data.canOwn && <GroupSettings group={group} etag={etag} />}
      </div>
    </ConsoleLayout>
  );
});
