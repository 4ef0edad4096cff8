/**
 * The numbers of Discord's API enums that Switchyard sends, typed as discord-api-types'
 * enum members. That package is CommonJS: importing its enums at run time would load
 * Node's compatibility layer on every start, so only its types are imported here.
 */
import type * as Discord from "discord-api-types/v10";

/** Button styles. */
export const ButtonStyle = {
  Primary: 1 as Discord.ButtonStyle.Primary,
  Secondary: 2 as Discord.ButtonStyle.Secondary,
  Success: 3 as Discord.ButtonStyle.Success,
  Danger: 4 as Discord.ButtonStyle.Danger,
  Link: 5 as Discord.ButtonStyle.Link,
} as const;

/** Message and modal component types. */
export const ComponentType = {
  ActionRow: 1 as Discord.ComponentType.ActionRow,
  Button: 2 as Discord.ComponentType.Button,
  StringSelect: 3 as Discord.ComponentType.StringSelect,
  TextInput: 4 as Discord.ComponentType.TextInput,
  Label: 18 as Discord.ComponentType.Label,
} as const;

/** Text input styles. */
export const TextInputStyle = {
  Short: 1 as Discord.TextInputStyle.Short,
  Paragraph: 2 as Discord.TextInputStyle.Paragraph,
} as const;

/** Application command option types. */
export const ApplicationCommandOptionType = {
  Subcommand: 1 as Discord.ApplicationCommandOptionType.Subcommand,
  String: 3 as Discord.ApplicationCommandOptionType.String,
} as const;

/** Application command types. */
export const ApplicationCommandType = {
  ChatInput: 1 as Discord.ApplicationCommandType.ChatInput,
} as const;

/** Interaction response types. */
export const InteractionResponseType = {
  ChannelMessageWithSource: 4 as Discord.InteractionResponseType.ChannelMessageWithSource,
  DeferredChannelMessageWithSource:
    5 as Discord.InteractionResponseType.DeferredChannelMessageWithSource,
  DeferredMessageUpdate: 6 as Discord.InteractionResponseType.DeferredMessageUpdate,
  UpdateMessage: 7 as Discord.InteractionResponseType.UpdateMessage,
  ApplicationCommandAutocompleteResult:
    8 as Discord.InteractionResponseType.ApplicationCommandAutocompleteResult,
  Modal: 9 as Discord.InteractionResponseType.Modal,
} as const;

/** Message flags. */
export const MessageFlags = {
  Ephemeral: 64 as Discord.MessageFlags.Ephemeral,
} as const;
