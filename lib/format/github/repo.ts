/**
 * Formatters for repository housekeeping: branch and tag creation and deletion,
 * forks, stars, collaborators, labels, milestones and the repository itself.
 */

import { compose, type EventContext, repositoryLink } from "../context.ts";
import { COLORS, parseColor } from "../colors.ts";
import { code, field, type Message, text } from "../message.ts";
import { at, number, string } from "../read.ts";
import { humanize, safeUrl } from "../text.ts";
import { bodyQuote, loginsOf, refLink, textField, textLine } from "./shared.ts";
import { ownValue } from "../../own_value.ts";

function refOf(context: EventContext) {
  const type = string(context.payload.ref_type) === "tag" ? "tag" as const : "branch" as const;
  return { type, name: string(context.payload.ref) ?? "unknown" };
}

/** A branch or tag was created (linked to it). */
export function formatCreate(context: EventContext): Message {
  const ref = refOf(context);
  const target = refLink(context, ref);
  return compose(context, {
    subject: `Created ${ref.type} ${ref.name}`,
    url: target.kind === "link" ? target.url : context.repository?.url,
    color: COLORS.green,
  });
}

/** A branch or tag was deleted. */
export function formatDelete(context: EventContext): Message {
  const ref = refOf(context);
  return compose(context, {
    subject: `Deleted ${ref.type} ${ref.name}`,
    url: context.repository?.url,
    color: COLORS.red,
  });
}

/** The repository was forked (linked to the fork). */
export function formatFork(context: EventContext): Message {
  const forkee = context.payload.forkee;
  return compose(context, {
    subject: `Forked to ${string(at(forkee, "full_name")) ?? "a new repository"}`,
    url: safeUrl(at(forkee, "html_url")),
    color: COLORS.blue,
    fields: [textField("Forks", at(context.payload, "repository", "forks_count"))],
  });
}

/** A star was added or removed (`star`), or added through the legacy `watch` event. */
export function formatStar(context: EventContext): Message {
  const removed = context.action === "deleted";
  return compose(context, {
    subject: removed ? "Star removed" : "Repository starred",
    url: context.repository?.url,
    color: removed ? COLORS.grey : COLORS.yellow,
    fields: [textField("Stars", at(context.payload, "repository", "stargazers_count"))],
  });
}

/** A collaborator was added, removed or had their permission changed. */
export function formatMember(context: EventContext): Message {
  const member = context.payload.member;
  const action = context.action ?? "changed";
  const verb = action === "edited" ? "permission changed" : humanize(action);
  const permission = string(at(context.payload, "changes", "permission", "to")) ??
    string(at(context.payload, "changes", "role_name", "to"));
  const previous = string(at(context.payload, "changes", "old_permission", "from")) ??
    string(at(context.payload, "changes", "permission", "from"));
  return compose(context, {
    subject: `Collaborator ${verb}: ${string(at(member, "login")) ?? "someone"}`,
    url: safeUrl(at(member, "html_url")),
    color: action === "added" ? COLORS.green : action === "removed" ? COLORS.red : COLORS.blue,
    fields: [textField("Permission", permission), textField("Previous permission", previous)],
    mentions: action === "added" ? loginsOf([member]) : [],
  });
}

/** A label was created, edited (or renamed) or deleted; the message takes the label's colour. */
export function formatLabel(context: EventContext): Message {
  const label = context.payload.label;
  const name = string(at(label, "name")) ?? "label";
  const previousName = string(at(context.payload, "changes", "name", "from"));
  const color = string(at(label, "color"));
  return compose(context, {
    subject: previousName
      ? `Label renamed: ${previousName} → ${name}`
      : `Label ${humanize(context.action ?? "changed")}: ${name}`,
    url: repositoryLink(context, "labels"),
    color: parseColor(color) ?? COLORS.purple,
    description: textLine(at(label, "description")),
    fields: [color ? field("Color", code(`#${color}`)) : undefined],
  });
}

/** A milestone changed: its due date and progress. */
export function formatMilestone(context: EventContext): Message {
  const milestone = context.payload.milestone;
  const action = context.action ?? "changed";
  const open = number(at(milestone, "open_issues")) ?? 0;
  const closed = number(at(milestone, "closed_issues")) ?? 0;
  const due = string(at(milestone, "due_on"))?.slice(0, 10);
  const colors: Record<string, number> = {
    created: COLORS.green,
    opened: COLORS.green,
    closed: COLORS.purple,
    deleted: COLORS.red,
  };
  return compose(context, {
    subject: `Milestone ${humanize(action)}: ${string(at(milestone, "title")) ?? "untitled"}`,
    url: safeUrl(at(milestone, "html_url")),
    color: ownValue(colors, action) ?? COLORS.blue,
    description: bodyQuote(at(milestone, "description")),
    fields: [
      textField("Due", due),
      open + closed > 0 ? field("Progress", text(`${closed}/${open + closed} closed`)) : undefined,
    ],
  });
}

const REPOSITORY_VERBS: Record<string, string> = {
  privatized: "made private",
  publicized: "made public",
};

const REPOSITORY_COLORS: Record<string, number> = {
  created: COLORS.green,
  deleted: COLORS.red,
  archived: COLORS.grey,
};

function repositoryChange(context: EventContext, action: string): string {
  const changes = context.payload.changes;
  if (action === "renamed") {
    const from = string(at(changes, "repository", "name", "from"));
    if (from) return `renamed from ${from}`;
  }
  if (action === "transferred") {
    const from = string(at(changes, "owner", "from", "user", "login")) ??
      string(at(changes, "owner", "from", "organization", "login"));
    if (from) return `transferred from ${from}`;
  }
  return ownValue(REPOSITORY_VERBS, action) ?? humanize(action);
}

/** The repository itself was created, renamed, transferred, archived, made public … */
export function formatRepository(context: EventContext): Message {
  const action = context.action ?? "changed";
  return compose(context, {
    subject: `Repository ${repositoryChange(context, action)}`,
    url: context.repository?.url,
    color: ownValue(REPOSITORY_COLORS, action) ?? COLORS.blue,
    description: action === "created"
      ? textLine(at(context.payload, "repository", "description"))
      : [],
  });
}
