/**
 * The configuration document: groups, routes, fragments and allowed targets as versioned
 * JSON, for backups and for moving a configuration between instances. Webhook secrets are in
 * it only when asked for. Validation uses the admin API's own schemas, then checks what ties
 * the parts together (every route, fragment, allowlist and secret belongs to a group of the
 * document; ids are unique; the limits of each collection hold), so an import that passes it
 * can be written without a refusal from the store.
 */
import { z } from "zod";
import { ID_PATTERN } from "../ids.ts";
import { fragmentSchema, groupSchema, routeSchema, targetRefSchema } from "../model/schema.ts";
import { upgradeEarlierRoute } from "../store/config/route_upgrade.ts";
import {
  MAX_ALLOWED_TARGETS,
  MAX_FRAGMENTS,
  MAX_FRAGMENTS_BYTES,
  MAX_GROUP_BYTES,
  MAX_GROUPS,
  MAX_ROUTE_BYTES,
  MAX_ROUTES,
} from "../limits.ts";
import { templateError } from "../template/mod.ts";
import { type TargetRef, targetRefKey, targetRefOf } from "../target_ref.ts";
import type { Fragment, Group, Route } from "../types.ts";

/** The document format's version. */
export const CONFIG_VERSION = 1;

/** One group's allowed chat targets. */
export interface GroupTargets {
  groupId: string;
  targets: TargetRef[];
}

/** One group's webhook secret, in plain text. */
export interface GroupSecretEntry {
  groupId: string;
  secret: string;
}

/** The whole document. */
export interface ConfigDocument {
  version: typeof CONFIG_VERSION;
  /** ISO-8601 time of the export. */
  exportedAt: string;
  groups: Group[];
  /** Every route, in stored order. */
  routes: Route[];
  fragments: Fragment[];
  allowedTargets: GroupTargets[];
  /** Present only in an export that asked for secrets. */
  secrets?: GroupSecretEntry[];
}

const idOnly = z.string().regex(ID_PATTERN, { error: "must be a group id" });

/** A group secret: 16 to 256 printable characters without spaces. */
const secretValue = z.string().regex(/^[\x21-\x7e]{16,256}$/, {
  error: "must be 16-256 printable characters without spaces",
});

/** The document as JSON; {@link checkConfigDocument} checks what ties its parts together. */
export const configDocumentSchema: z.ZodType<ConfigDocument, unknown> = z.strictObject({
  version: z.literal(CONFIG_VERSION, { error: `must be ${CONFIG_VERSION}` }),
  exportedAt: z.iso.datetime({ error: "must be an ISO-8601 time" }),
  groups: z.array(groupSchema).max(MAX_GROUPS, { error: `at most ${MAX_GROUPS} groups` }),
  routes: z.array(z.preprocess(upgradeEarlierRoute, routeSchema)).max(MAX_ROUTES, {
    error: `at most ${MAX_ROUTES} routes`,
  }),
  fragments: z.array(fragmentSchema).max(MAX_GROUPS * MAX_FRAGMENTS),
  allowedTargets: z.array(z.strictObject({
    groupId: idOnly,
    targets: z.array(targetRefSchema).max(MAX_ALLOWED_TARGETS, {
      error: `at most ${MAX_ALLOWED_TARGETS} targets per group`,
    }),
  })).max(MAX_GROUPS),
  secrets: z.array(z.strictObject({ groupId: idOnly, secret: secretValue })).max(MAX_GROUPS)
    .optional(),
});

const encoder = new TextEncoder();
const bytesOf = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/** The first problem of a parsed document, as `path: message`, or null when there is none. */
export function checkConfigDocument(document: ConfigDocument): string | null {
  const groupIds = new Set<string>();
  for (const [index, group] of document.groups.entries()) {
    if (groupIds.has(group.id)) return `groups[${index}].id: duplicate group id "${group.id}"`;
    if (bytesOf(group) > MAX_GROUP_BYTES) {
      return `groups[${index}]: at most ${MAX_GROUP_BYTES} bytes of JSON`;
    }
    groupIds.add(group.id);
  }
  const unknownGroup = (where: string, groupId: string) =>
    groupIds.has(groupId) ? null : `${where}.groupId: group "${groupId}" is not in the document`;
  return checkRoutes(document.routes, unknownGroup) ??
    checkFragments(document.fragments, unknownGroup) ??
    checkTargets(document, unknownGroup) ??
    checkSecrets(document.secrets ?? [], unknownGroup);
}

type GroupCheck = (where: string, groupId: string) => string | null;

function checkRoutes(routes: readonly Route[], unknownGroup: GroupCheck): string | null {
  const seen = new Set<string>();
  for (const [index, route] of routes.entries()) {
    const problem = unknownGroup(`routes[${index}]`, route.groupId);
    if (problem) return problem;
    const key = `${route.groupId}\u0000${route.id}`;
    if (seen.has(key)) return `routes[${index}].id: duplicate route id "${route.id}"`;
    seen.add(key);
    if (bytesOf(route) > MAX_ROUTE_BYTES) {
      return `routes[${index}]: at most ${MAX_ROUTE_BYTES} bytes of JSON`;
    }
    const templateProblem = route.template && templateError(route.template);
    if (templateProblem) return `routes[${index}].template.${templateProblem}`;
  }
  return null;
}

function checkFragments(fragments: readonly Fragment[], unknownGroup: GroupCheck) {
  const byGroup = new Map<string, Fragment[]>();
  for (const [index, fragment] of fragments.entries()) {
    const problem = unknownGroup(`fragments[${index}]`, fragment.groupId);
    if (problem) return problem;
    const list = byGroup.get(fragment.groupId) ?? [];
    if (list.some((other) => other.id === fragment.id)) {
      return `fragments[${index}].id: duplicate fragment id "${fragment.id}"`;
    }
    byGroup.set(fragment.groupId, [...list, fragment]);
  }
  for (const [groupId, list] of byGroup) {
    if (list.length > MAX_FRAGMENTS) {
      return `fragments: group "${groupId}" has more than ${MAX_FRAGMENTS} fragments`;
    }
    if (bytesOf({ fragments: list, updatedAt: 0 }) > MAX_FRAGMENTS_BYTES) {
      return `fragments: group "${groupId}" has more than ${MAX_FRAGMENTS_BYTES} bytes of fragments`;
    }
  }
  return null;
}

function checkTargets(document: ConfigDocument, unknownGroup: GroupCheck): string | null {
  const listed = new Set<string>();
  for (const [index, entry] of document.allowedTargets.entries()) {
    const problem = unknownGroup(`allowedTargets[${index}]`, entry.groupId);
    if (problem) return problem;
    if (listed.has(entry.groupId)) {
      return `allowedTargets[${index}].groupId: group "${entry.groupId}" is listed twice`;
    }
    listed.add(entry.groupId);
  }
  for (const group of document.groups) {
    const count = allowedTargetsOf(document, group.id).length;
    if (count > MAX_ALLOWED_TARGETS) {
      return `allowedTargets: group "${group.id}" would allow more than ${MAX_ALLOWED_TARGETS} targets`;
    }
  }
  return null;
}

function checkSecrets(secrets: readonly GroupSecretEntry[], unknownGroup: GroupCheck) {
  const seen = new Set<string>();
  for (const [index, entry] of secrets.entries()) {
    const problem = unknownGroup(`secrets[${index}]`, entry.groupId);
    if (problem) return problem;
    if (seen.has(entry.groupId)) {
      return `secrets[${index}].groupId: group "${entry.groupId}" is listed twice`;
    }
    seen.add(entry.groupId);
  }
  return null;
}

/**
 * The targets a group allows after an import: its listed targets, and the channels and chats
 * of its routes (a super admin's route save allows them the same way), each once.
 */
export function allowedTargetsOf(document: ConfigDocument, groupId: string): TargetRef[] {
  const listed = document.allowedTargets.find((entry) => entry.groupId === groupId)?.targets ??
    [];
  const fromRoutes = document.routes.filter((route) => route.groupId === groupId)
    .flatMap((route) => route.targets);
  const seen = new Set<string>();
  const targets: TargetRef[] = [];
  for (const target of [...listed, ...fromRoutes]) {
    const key = targetRefKey(target);
    if (seen.has(key)) continue;
    seen.add(key);
    targets.push(targetRefOf(target));
  }
  return targets;
}

/** The query of `GET /admin/api/config/export`. */
export const exportQuerySchema = z.strictObject({
  secrets: z.enum(["true", "false"]).optional().describe(
    "true: include the groups' webhook secrets in plain text",
  ),
});

/** The query of `POST /admin/api/config/import`. */
export const importQuerySchema = z.strictObject({
  dryRun: z.enum(["true", "false"]).optional().describe(
    "true: validate and answer the plan without writing",
  ),
});

/** The answer of an import: what happens (dry run) or happened to each group. */
export const importAnswerSchema = z.object({
  ok: z.literal(true),
  dryRun: z.boolean(),
  groups: z.array(z.object({
    id: z.string(),
    action: z.enum(["create", "replace"]),
    routes: z.number().int(),
    fragments: z.number().int(),
    allowedTargets: z.number().int(),
    secret: z.boolean(),
  })),
});
