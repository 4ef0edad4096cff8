/**
 * Debian's chromium for playwright-core, shared by the browser tests and
 * `deno task screenshots`: where it is and how it is launched (headless, no
 * sandbox, nothing that phones home).
 */
import { type Browser, chromium } from "playwright-core";

/** Where Debian installs chromium (`apt-get install -y chromium`). */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether chromium is installed. */
export const hasChromium = await Deno.stat(CHROMIUM).then(() => true, () => false);

const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** Launches chromium headless; close the browser when done. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
}
