/** Formatters for security alerts: code scanning, Dependabot and secret scanning. */

import { compose, type EventContext } from "../context.ts";
import { COLORS, severityColor } from "../colors.ts";
import { code, field, type Message, type MessageField, text } from "../message.ts";
import { at, list, string } from "../read.ts";
import { capitalize, humanize, parseRef, safeUrl } from "../text.ts";
import { branchField, fileField, textField, usersField } from "./shared.ts";
import { ownValue } from "../../own_value.ts";

const VERBS: Record<string, string> = {
  closed_by_user: "closed",
  reopened_by_user: "reopened",
  appeared_in_branch: "appeared in a branch",
  auto_dismissed: "dismissed automatically",
  auto_reopened: "reopened automatically",
  publicly_leaked: "publicly leaked",
};

const RESOLVED = new Set(["fixed", "resolved"]);
const DISMISSED = new Set(["closed_by_user", "dismissed", "auto_dismissed"]);

function alertSubject(kind: string, action: string | undefined, alert: unknown, what: string) {
  const number = string(at(alert, "number"));
  const verb = action ? ownValue(VERBS, action) ?? humanize(action) : "updated";
  return `${kind} alert${number ? ` #${number}` : ""} ${verb}: ${what}`;
}

/** Resolved alerts are green, dismissed ones grey, open ones coloured by severity. */
function alertColor(action: string | undefined, severity: string | undefined): number {
  if (action && RESOLVED.has(action)) return COLORS.green;
  if (action && DISMISSED.has(action)) return COLORS.grey;
  return severityColor(severity);
}

function severityField(severity: string | undefined): MessageField | undefined {
  return severity ? field("Severity", text(capitalize(severity))) : undefined;
}

/** A code scanning alert: rule, severity, tool, file and branch. */
export function formatCodeScanningAlert(context: EventContext): Message {
  const alert = context.payload.alert;
  const rule = at(alert, "rule");
  const severity = string(at(rule, "security_severity_level")) ?? string(at(rule, "severity"));
  const instance = at(alert, "most_recent_instance") ?? list(at(alert, "instances"))[0];
  const ref = parseRef(string(at(instance, "ref")) ?? string(context.payload.ref) ?? "");
  const ruleName = string(at(rule, "description")) ?? string(at(rule, "name")) ??
    string(at(rule, "id")) ?? "unknown rule";
  return compose(context, {
    subject: alertSubject("Code scanning", context.action, alert, ruleName),
    url: safeUrl(at(alert, "html_url")),
    color: alertColor(context.action, severity),
    fields: [
      severityField(severity),
      textField("Tool", at(alert, "tool", "name")),
      ref.type === "branch" ? branchField(context, ref.name) : undefined,
      fileField(at(instance, "location", "path"), at(instance, "location", "start_line")),
    ],
  });
}

/** A Dependabot alert: package, severity, vulnerable range, patched version and advisory. */
export function formatDependabotAlert(context: EventContext): Message {
  const alert = context.payload.alert;
  const advisory = at(alert, "security_advisory");
  const vulnerability = at(alert, "security_vulnerability");
  const severity = string(at(vulnerability, "severity")) ?? string(at(advisory, "severity"));
  const packageName = string(at(alert, "dependency", "package", "name")) ??
    string(at(vulnerability, "package", "name"));
  const ecosystem = string(at(alert, "dependency", "package", "ecosystem"));
  const advisoryId = string(at(advisory, "cve_id")) ?? string(at(advisory, "ghsa_id"));
  return compose(context, {
    subject: alertSubject(
      "Dependabot",
      context.action,
      alert,
      string(at(advisory, "summary")) ?? packageName ?? "vulnerable dependency",
    ),
    url: safeUrl(at(alert, "html_url")),
    color: alertColor(context.action, severity),
    fields: [
      packageName
        ? field("Package", text(ecosystem ? `${packageName} (${ecosystem})` : packageName))
        : undefined,
      severityField(severity),
      textField("Vulnerable versions", at(vulnerability, "vulnerable_version_range")),
      textField("Patched version", at(vulnerability, "first_patched_version", "identifier")),
      advisoryId ? field("Advisory", code(advisoryId)) : undefined,
      fileField(at(alert, "dependency", "manifest_path"), undefined),
    ],
  });
}

/** A secret scanning alert: secret type, resolution and who resolved it. */
export function formatSecretScanningAlert(context: EventContext): Message {
  const alert = context.payload.alert;
  const secretType = string(at(alert, "secret_type_display_name")) ??
    string(at(alert, "secret_type")) ?? "secret";
  const resolution = string(at(alert, "resolution"));
  return compose(context, {
    subject: alertSubject("Secret scanning", context.action, alert, secretType),
    url: safeUrl(at(alert, "html_url")),
    color: context.action && RESOLVED.has(context.action) ? COLORS.green : COLORS.red,
    fields: [
      textField("Resolution", resolution ? humanize(resolution) : undefined),
      usersField(context, "Resolved by", [at(alert, "resolved_by")]),
      textField("Validity", at(alert, "validity")),
    ],
  });
}
