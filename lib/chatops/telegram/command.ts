/**
 * Reading a chat command from a message text: `/gh <subcommand> [arguments]` (also
 * `/gh@BotName …`, as Telegram writes commands in groups), and `/start [payload]`, which a
 * private chat sends when it is opened from a `t.me/<bot>?start=…` link.
 */

/** A command found at the start of a message. */
export interface ChatCommand {
  /** `gh` or `start`. */
  name: "gh" | "start";
  /** The bot the command names after `@`, lower-case, when it names one. */
  botName?: string;
  /** The first word after the command, lower-case (empty when there is none). */
  subcommand: string;
  /** Everything after the subcommand, trimmed (line breaks kept). */
  rest: string;
}

const COMMAND = /^\/(gh|start)(?:@([A-Za-z0-9_]{1,64}))?(?=\s|$)/;
const FIRST_WORD = /^(\S*)\s*([\s\S]*)$/;

/** The command at the start of `text`, or null when the text is not one of ours. */
export function parseCommand(text: string): ChatCommand | null {
  const match = COMMAND.exec(text);
  if (!match) return null;
  const after = text.slice(match[0].length).trim();
  const [, word, rest] = FIRST_WORD.exec(after)!;
  return {
    name: match[1] as ChatCommand["name"],
    ...(match[2] === undefined ? {} : { botName: match[2].toLowerCase() }),
    subcommand: word.toLowerCase(),
    rest: rest.trim(),
  };
}
