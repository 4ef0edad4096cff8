/**
 * The parts of a Discord interaction chat-ops reads, validated after the signature check: ids
 * are snowflakes, strings are bounded, and anything else Discord sends is ignored. A payload
 * that does not fit is a 400, never a crash.
 */
import { z } from "zod";
import type { ChatPlace } from "../authorize.ts";

const snowflake = z.string().regex(/^\d{1,20}$/);
const text = (max: number) => z.string().max(max);

/** One option of a command as Discord sends it (sub-commands nest their options). */
export interface CommandOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  focused?: boolean;
  options?: CommandOption[];
}

/**
 * Option levels Discord nests at most: a sub-command group holds sub-commands, which hold the
 * options. The schemas below are built to this depth, not recursive, so no payload can nest
 * deeper than they read; deeper input fails validation (a 400) instead of exhausting the stack.
 */
export const MAX_OPTION_LEVELS = 3;

/** Modal component levels read at most (a row or label holding a text input uses two). */
export const MAX_SUBMITTED_LEVELS = 4;

/** An array that may only be empty: what a schema accepts below its deepest level. */
const nothingDeeper = z.array(z.never()).optional();

/** Options nested at most `levels` deep. */
function optionSchema(levels: number): z.ZodType<CommandOption> {
  return z.object({
    name: text(32),
    type: z.number().int(),
    value: z.union([text(6000), z.number(), z.boolean()]).optional(),
    focused: z.boolean().optional(),
    options: levels > 1 ? z.array(optionSchema(levels - 1)).max(25).optional() : nothingDeeper,
  });
}

const userSchema = z.object({
  id: snowflake,
  username: text(64).optional(),
  global_name: text(64).nullish(),
});

/** A component of a modal submission: a text input, possibly inside a row or label. */
interface SubmittedComponent {
  type: number;
  custom_id?: string;
  value?: string;
  component?: SubmittedComponent;
  components?: SubmittedComponent[];
}

/** Modal components nested at most `levels` deep. */
function submittedSchema(levels: number): z.ZodType<SubmittedComponent> {
  const inner = levels > 1 ? submittedSchema(levels - 1) : null;
  return z.object({
    type: z.number().int(),
    custom_id: text(100).optional(),
    value: text(6000).optional(),
    component: inner ? inner.optional() : z.never().optional(),
    components: inner ? z.array(inner).max(10).optional() : nothingDeeper,
  });
}

const interactionSchema = z.object({
  id: snowflake,
  application_id: snowflake,
  type: z.number().int(),
  token: text(1000).regex(/^[A-Za-z0-9._-]+$/),
  guild_id: snowflake.optional(),
  channel_id: snowflake.optional(),
  channel: z.object({
    id: snowflake,
    type: z.number().int(),
    parent_id: snowflake.nullish(),
  }).optional(),
  member: z.object({
    user: userSchema,
    roles: z.array(snowflake).max(300),
    permissions: z.string().regex(/^\d{1,30}$/).optional(),
  }).optional(),
  user: userSchema.optional(),
  message: z.object({ id: snowflake, timestamp: text(64).optional() }).optional(),
  data: z.object({
    name: text(32).optional(),
    options: z.array(optionSchema(MAX_OPTION_LEVELS)).max(25).optional(),
    custom_id: text(100).optional(),
    component_type: z.number().int().optional(),
    values: z.array(text(100)).max(25).optional(),
    components: z.array(submittedSchema(MAX_SUBMITTED_LEVELS)).max(10).optional(),
  }).optional(),
});

/** A validated interaction. */
export type Interaction = z.infer<typeof interactionSchema>;

/** Interaction types (Discord's numbers). */
export const INTERACTION = {
  ping: 1,
  command: 2,
  component: 3,
  autocomplete: 4,
  modalSubmit: 5,
} as const;

/** The interaction, or null when the payload does not fit. */
export function parseInteraction(body: unknown): Interaction | null {
  const parsed = interactionSchema.safeParse(body);
  return parsed.success ? parsed.data : null;
}

/** Who acted: the member's user in a server, the user in a direct message. */
export function invokerOf(interaction: Interaction): z.infer<typeof userSchema> | null {
  return interaction.member?.user ?? interaction.user ?? null;
}

/** Discord's permission bits chat-ops checks. */
const ADMINISTRATOR = 1n << 3n;
const MANAGE_CHANNELS = 1n << 4n;

/** Whether the member may manage the channel (Manage Channels, or Administrator). */
export function canManageChannels(interaction: Interaction): boolean {
  const bits = interaction.member?.permissions;
  if (bits === undefined) return false;
  const value = BigInt(bits);
  return (value & MANAGE_CHANNELS) !== 0n || (value & ADMINISTRATOR) !== 0n;
}

/** Thread channel types: announcement, public and private threads. */
const THREAD_TYPES = new Set([10, 11, 12]);

/** The channel the interaction came from, a thread standing for its parent channel. */
export function channelForClaim(interaction: Interaction): string | null {
  const channel = interaction.channel;
  if (channel && THREAD_TYPES.has(channel.type) && channel.parent_id) return channel.parent_id;
  return interaction.channel_id ?? null;
}

/**
 * Where the interaction acts from, for `chatActionRefusal`: the channel routes name (a thread's
 * parent) and the channel or thread notifications are recorded under. Nothing in a direct
 * message.
 */
export function discordPlace(interaction: Interaction): ChatPlace {
  const channelId = channelForClaim(interaction);
  const here = interaction.channel_id;
  if (!interaction.guild_id || !channelId || !here) {
    return { platform: "discord", chats: [], recordedIn: [] };
  }
  return {
    platform: "discord",
    chats: [{ platform: "discord", channelId }],
    recordedIn: [...new Set([here, channelId])],
  };
}

/** The sub-command of the `/gh` command and its options by name. */
export function subcommandOf(
  interaction: Interaction,
): { name: string; options: Map<string, CommandOption> } | null {
  const sub = interaction.data?.options?.[0];
  if (!sub || sub.type !== 1) return null;
  return { name: sub.name, options: new Map((sub.options ?? []).map((o) => [o.name, o])) };
}

/** A string option's value, or undefined. */
export function stringOption(
  options: Map<string, CommandOption>,
  name: string,
): string | undefined {
  const value = options.get(name)?.value;
  return typeof value === "string" ? value : undefined;
}

/**
 * The value of the text input `customId` in a modal submission, or undefined. The components
 * come from a validated interaction, so the walk is at most `MAX_SUBMITTED_LEVELS` deep.
 */
export function submittedValue(
  components: readonly SubmittedComponent[] | undefined,
  customId: string,
): string | undefined {
  for (const component of components ?? []) {
    if (component.custom_id === customId && typeof component.value === "string") {
      return component.value;
    }
    const inner = submittedValue(
      [...(component.component ? [component.component] : []), ...(component.components ?? [])],
      customId,
    );
    if (inner !== undefined) return inner;
  }
  return undefined;
}
