/**
 * `POST /discord/interactions`: 503 until DISCORD_PUBLIC_KEY and DISCORD_APPLICATION_ID are
 * set; the body is read with a 64 KiB limit and its Ed25519 signature checked before anything
 * is parsed (any failure → 401); PING answers PONG; an interaction id seen before (a replay
 * within the signature window) is 401 too; commands, buttons, menus, forms and autocomplete get
 * their answers. Work that calls GitHub runs after the answer is sent (the
 * answer is a deferral) and never delays it; its failures are logged, never thrown.
 */
import { fromUtf8 } from "../../encoding.ts";
import { BODY_ERRORS, readBody } from "../../request_body.ts";
import { claimInteractionId } from "../../store/auth/interaction_ids.ts";
import { answerAutocomplete, answerCommand } from "./commands.ts";
import { answerComponent, answerModal } from "./buttons.ts";
import type { DiscordDeps, InteractionAnswer } from "./answer.ts";
import { INTERACTION, type Interaction, parseInteraction } from "./interaction.ts";
import { ephemeral } from "./reply.ts";
import { verifyDiscordSignature } from "./verify.ts";

/** Largest interaction body read (Discord's are a few KiB). */
const INTERACTION_BODY_BYTES = 64 * 1024;

function error(status: number, message: string): Response {
  return Response.json({ error: message }, { status });
}

async function answer(deps: DiscordDeps, interaction: Interaction): Promise<InteractionAnswer> {
  switch (interaction.type) {
    case INTERACTION.command:
      return await answerCommand(deps, interaction);
    case INTERACTION.component:
      return await answerComponent(deps, interaction);
    case INTERACTION.modalSubmit:
      return await answerModal(deps, interaction);
    case INTERACTION.autocomplete:
      return await answerAutocomplete(deps, interaction);
    default:
      return { response: ephemeral("Switchyard does not handle this kind of interaction.") };
  }
}

/** Follow-ups still running after their interaction was answered. */
const running = new Set<Promise<void>>();

/** Keeps `work` among the running follow-ups until it settles. */
function trackFollowUp(work: Promise<void>): void {
  const tracked = work.finally(() => running.delete(tracked));
  running.add(tracked);
}

/**
 * Resolves once every follow-up still running after its answer has ended: a graceful stop
 * waits for them (within its grace period), so a deferred answer is completed, not dropped.
 */
export async function followUpsHandled(): Promise<void> {
  while (running.size > 0) await Promise.all(running);
}

/**
 * Handles one interaction request. `background` receives the work to run after the answer
 * (by default it is kept until it ends, see {@link followUpsHandled}).
 */
export async function handleInteraction(
  deps: DiscordDeps,
  req: Request,
  background: (work: Promise<void>) => void = trackFollowUp,
): Promise<Response> {
  const { publicKey, applicationId } = deps.config.discord;
  if (!publicKey || !applicationId) {
    await req.body?.cancel().catch(() => {});
    return error(503, "Discord interactions is not configured");
  }
  const read = await readBody(req, { maxBytes: INTERACTION_BODY_BYTES });
  if (!read.ok) {
    if (read.refusal === "too_large") return error(413, BODY_ERRORS.tooLarge);
    return read.refusal === "timeout"
      ? error(408, BODY_ERRORS.timeout)
      : error(400, BODY_ERRORS.unreadable);
  }
  if (!(await verifyDiscordSignature(publicKey, req.headers, read.bytes))) {
    return error(401, "Invalid request signature");
  }
  let body: unknown;
  try {
    body = JSON.parse(fromUtf8(read.bytes));
  } catch {
    return error(400, BODY_ERRORS.invalidJson);
  }
  if (
    typeof body === "object" && body !== null &&
    (body as { type?: unknown }).type === INTERACTION.ping
  ) {
    return Response.json({ type: 1 });
  }
  const interaction = parseInteraction(body);
  if (!interaction) return error(400, "Not a Discord interaction");
  if (!(await claimInteractionId(deps.kv, interaction.id))) {
    return error(401, "Interaction already handled");
  }
  const result = await answer(deps, interaction);
  if (result.later) {
    const later = result.later;
    background(
      later().catch((failure) => {
        deps.log.error("discord interaction follow-up failed", { error: String(failure) });
      }),
    );
  }
  return Response.json(result.response);
}
