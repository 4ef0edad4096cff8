/**
 * Importing a configuration document: the whole document is validated first (nothing is
 * written when any part is refused), then each group is written in one atomic operation with
 * its audit entry (`lib/store/config/config_import.ts`). Groups not in the document are left as they
 * are. A dry run validates and answers the plan without writing.
 */
import type { Kv } from "../store/backend/types.ts";
import { formatZodError } from "../model/schema.ts";
import type { AuditActor } from "../store/telemetry/audit.ts";
import { importGroup } from "../store/config/config_import.ts";
import { listGroups } from "../store/config/groups.ts";
import { getRoutes } from "../store/config/routes.ts";
import { MAX_GROUPS, MAX_ROUTES } from "../limits.ts";
import {
  allowedTargetsOf,
  checkConfigDocument,
  type ConfigDocument,
  configDocumentSchema,
} from "./config_document.ts";

/** What happens, or happened, to one group. */
interface GroupPlan {
  id: string;
  action: "create" | "replace";
  routes: number;
  fragments: number;
  allowedTargets: number;
  secret: boolean;
}

/** The answer of an import. */
type ImportOutcome =
  | { ok: true; dryRun: boolean; groups: GroupPlan[] }
  | { ok: false; status: 400 | 409; error: string; imported: string[] };

/** Who imports and how. */
interface ImportOptions {
  actor: AuditActor;
  dryRun?: boolean;
  encryptionKey?: string;
  now?: number;
}

/** The document, or the first problem as `path: message`. */
function parseConfigDocument(
  value: unknown,
): { ok: true; document: ConfigDocument } | { ok: false; error: string } {
  const parsed = configDocumentSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: formatZodError(parsed.error) };
  const problem = checkConfigDocument(parsed.data);
  return problem ? { ok: false, error: problem } : { ok: true, document: parsed.data };
}

/** Refusals that depend on what is stored: totals over the instance after the import. */
async function checkTotals(kv: Kv, document: ConfigDocument): Promise<string | null> {
  const imported = new Set(document.groups.map((group) => group.id));
  const [groups, routes] = await Promise.all([listGroups(kv), getRoutes(kv)]);
  const groupCount = imported.size + groups.filter((group) => !imported.has(group.id)).length;
  if (groupCount > MAX_GROUPS) return `groups: at most ${MAX_GROUPS} groups per instance`;
  const routeCount = document.routes.length +
    routes.routes.filter((route) => !imported.has(route.groupId)).length;
  if (routeCount > MAX_ROUTES) return `routes: at most ${MAX_ROUTES} routes per instance`;
  return null;
}

function planOf(document: ConfigDocument, existing: ReadonlySet<string>): GroupPlan[] {
  const secrets = new Set((document.secrets ?? []).map((entry) => entry.groupId));
  return document.groups.map((group) => ({
    id: group.id,
    action: existing.has(group.id) ? "replace" : "create",
    routes: document.routes.filter((route) => route.groupId === group.id).length,
    fragments: document.fragments.filter((fragment) => fragment.groupId === group.id).length,
    allowedTargets: allowedTargetsOf(document, group.id).length,
    secret: secrets.has(group.id),
  }));
}

/** Validates `value` as a configuration document and imports it (see the module comment). */
export async function importConfig(
  kv: Kv,
  value: unknown,
  options: ImportOptions,
): Promise<ImportOutcome> {
  const parsed = parseConfigDocument(value);
  if (!parsed.ok) return { ok: false, status: 400, error: parsed.error, imported: [] };
  const { document } = parsed;
  const tooMany = await checkTotals(kv, document);
  if (tooMany) return { ok: false, status: 400, error: tooMany, imported: [] };
  const existing = new Set((await listGroups(kv)).map((group) => group.id));
  const plan = planOf(document, existing);
  if (options.dryRun) return { ok: true, dryRun: true, groups: plan };

  const context = {
    actor: options.actor,
    now: options.now ?? Date.now(),
    encryptionKey: options.encryptionKey,
  };
  const imported: string[] = [];
  for (const group of document.groups) {
    const result = await importGroup(kv, {
      group,
      routes: document.routes.filter((route) => route.groupId === group.id),
      fragments: document.fragments.filter((fragment) => fragment.groupId === group.id),
      allowedTargets: allowedTargetsOf(document, group.id),
      secret: document.secrets?.find((entry) => entry.groupId === group.id)?.secret,
    }, context);
    if (!result.ok) {
      return {
        ok: false,
        status: result.reason === "conflict" ? 409 : 400,
        error: `group ${group.id}: ${
          result.reason === "conflict"
            ? "changed during the import; try again"
            : `refused (${result.reason})`
        }${imported.length > 0 ? ` (imported before it: ${imported.join(", ")})` : ""}`,
        imported,
      };
    }
    imported.push(group.id);
  }
  return { ok: true, dryRun: false, groups: plan };
}
