/**
 * Credentials Switchyard stores (users' GitHub tokens, groups' webhook
 * secrets) are sealed with TOKEN_ENCRYPTION_KEY when it is set; without it
 * they are stored as they are, which the operator is told once at start-up.
 */
import type { Config } from "./config.ts";

/** The start-up warning when stored credentials will not be encrypted, or null. */
export function atRestWarning(config: Pick<Config, "tokenEncryptionKey">): string | null {
  if (config.tokenEncryptionKey) return null;
  return "TOKEN_ENCRYPTION_KEY is not set: GitHub tokens and group webhook secrets " +
    "are stored unencrypted";
}
