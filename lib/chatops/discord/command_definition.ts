/**
 * The `/gh` command as Discord registers it: one chat command with a sub-command per action.
 * `deno task discord:commands` sends it (`registerCommands`).
 */
import type {
  APIApplicationCommandBasicOption,
  RESTPutAPIApplicationCommandsJSONBody,
} from "discord-api-types/v10";
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
} from "../../format/discord_values.ts";
import { GITHUB_REACTIONS } from "../../format/reactions.ts";
import { MAX_ISSUE_TITLE } from "../../github/actions.ts";
import { MERGE_METHODS } from "../act.ts";
import { MAX_REPOSITORY_TEXT } from "../create_issue.ts";
import { MAX_REF_LENGTH } from "../../format/issue_ref.ts";
import { COMMAND_NAME } from "./commands.ts";
import { MUTE_COMMAND_OPTIONS } from "./mute.ts";
import { REMIND_COMMAND_OPTION } from "./remind.ts";

type Option = APIApplicationCommandBasicOption;

const ref: Option = {
  type: ApplicationCommandOptionType.String,
  name: "ref",
  description: "owner/repo#123 or the pull request's or issue's GitHub address",
  required: true,
  autocomplete: true,
  max_length: MAX_REF_LENGTH,
};

function sub(name: string, description: string, options: Option[] = []) {
  return { type: ApplicationCommandOptionType.Subcommand, name, description, options };
}

function group(description: string): Option {
  return {
    type: ApplicationCommandOptionType.String,
    name: "group",
    description,
    required: true,
    max_length: 64,
  };
}

/** The body of the bulk overwrite: the one `/gh` command. */
export const COMMANDS: RESTPutAPIApplicationCommandsJSONBody = [{
  type: ApplicationCommandType.ChatInput,
  name: COMMAND_NAME,
  description: "Act on GitHub as your linked account",
  options: [
    sub("link", "Link your Discord account to your GitHub account"),
    sub("unlink", "Remove the link to your GitHub account"),
    sub("whoami", "Show which GitHub account you are linked to"),
    sub("comment", "Comment on a pull request or issue", [
      ref,
      {
        type: ApplicationCommandOptionType.String,
        name: "text",
        description: "The comment (Markdown)",
        required: true,
        max_length: 4000,
      },
    ]),
    sub("merge", "Merge a pull request", [
      ref,
      {
        type: ApplicationCommandOptionType.String,
        name: "method",
        description: "How to merge (the repository's default when left out)",
        choices: MERGE_METHODS.map((method) => ({ name: method, value: method })),
      },
    ]),
    sub("close", "Close a pull request or issue", [ref]),
    sub("reopen", "Reopen a pull request or issue", [ref]),
    sub("react", "React to a pull request or issue", [
      ref,
      {
        type: ApplicationCommandOptionType.String,
        name: "emoji",
        description: "One of GitHub's reactions",
        required: true,
        choices: GITHUB_REACTIONS.map(([name, emoji]) => ({
          name: `${emoji} ${name}`,
          value: name,
        })),
      },
    ]),
    sub("issue", "Open an issue (a form asks for its body)", [
      {
        type: ApplicationCommandOptionType.String,
        name: "repo",
        description: "The repository, as owner/repo",
        required: true,
        max_length: MAX_REPOSITORY_TEXT,
      },
      {
        type: ApplicationCommandOptionType.String,
        name: "title",
        description: "The issue's title",
        required: true,
        max_length: MAX_ISSUE_TITLE,
      },
    ]),
    sub("subscribe", "Let a group post into this channel (needs Manage Channels)", [
      group("The group's id"),
    ]),
    sub("unsubscribe", "Stop a group posting into this channel (needs Manage Channels)", [
      group("The group's id"),
    ]),
    ...MUTE_COMMAND_OPTIONS,
    sub("resume", "Send what was held while this channel was paused (group owners and admins)"),
    sub("notify", "Your personal notifications; state off pauses them all, on resumes", [{
      type: ApplicationCommandOptionType.String,
      name: "state",
      description: "off: pause all personal notifications; on: resume",
      required: false,
      choices: [{ name: "on", value: "on" }, { name: "off", value: "off" }],
    }]),
    REMIND_COMMAND_OPTION,
  ],
}];
