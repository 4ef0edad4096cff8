/**
 * GitHub's eight reactions, as chats name them: GitHub's own name (`+1`, `rocket`), a common
 * alias (`thumbsup`, `tada`) or the emoji itself.
 */
import { GITHUB_REACTIONS } from "../format/reactions.ts";
import { REACTIONS } from "../github/actions.ts";

/** One of GitHub's reaction names. */
export type Reaction = typeof REACTIONS[number];

/** Each reaction's emoji, in GitHub's order. */
export const REACTION_EMOJI: ReadonlyMap<Reaction, string> = new Map<Reaction, string>(
  GITHUB_REACTIONS,
);

const ALIASES: ReadonlyMap<string, Reaction> = new Map<string, Reaction>([
  ["thumbsup", "+1"],
  ["thumbs_up", "+1"],
  ["like", "+1"],
  ["thumbsdown", "-1"],
  ["thumbs_down", "-1"],
  ["smile", "laugh"],
  ["tada", "hooray"],
  ["👍", "+1"],
  ["👎", "-1"],
  ["😄", "laugh"],
  ["😆", "laugh"],
  ["😕", "confused"],
  ["❤", "heart"],
  ["❤️", "heart"],
  ["🎉", "hooray"],
  ["🚀", "rocket"],
  ["👀", "eyes"],
]);

/** The reaction `input` names, or null. */
export function parseReaction(input: unknown): Reaction | null {
  if (typeof input !== "string" || input.length > 32) return null;
  const text = input.trim().replace(/^:|:$/g, "").toLowerCase();
  const known = (REACTIONS as readonly string[]).includes(text);
  if (known) return text as Reaction;
  return ALIASES.get(text) ?? ALIASES.get(text.replace(/[\u{1F3FB}-\u{1F3FF}]/gu, "")) ?? null;
}

/** The reactions in words, for a refusal: `+1 👍, -1 👎, …`. */
export function reactionList(): string {
  return [...REACTION_EMOJI].map(([name, emoji]) => `${name} ${emoji}`).join(", ");
}
