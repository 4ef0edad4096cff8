/**
 * A pasted sample event kept in the browser's session, so that the editor that opens after
 * creating a route explains against the same payload.
 */
import { pastedSampleKey } from "../../../lib/console/samples.ts";

/** The parts of a pasted sample that are kept. */
export interface PastedSample {
  text: string;
  kind: string;
  action: string;
}

/** Keeps a pasted sample in the browser's session for the editor that opens next. */
export function keepPastedSample(groupId: string, sample: PastedSample) {
  try {
    const { text, kind, action } = sample;
    sessionStorage.setItem(pastedSampleKey(groupId), JSON.stringify({ text, kind, action }));
  } catch {
    // A full or disabled session storage: the editor opens with the first bundled sample.
  }
}

/**
 * The pasted sample {@link keepPastedSample} kept, or null. It stays in the session (a reload
 * of the page shows it again) until the next pasted sample of the group replaces it.
 */
export function readPastedSample(groupId: string): PastedSample | null {
  try {
    const kept = JSON.parse(sessionStorage.getItem(pastedSampleKey(groupId)) ?? "null");
    if (
      kept !== null && typeof kept === "object" && typeof kept.text === "string" &&
      typeof kept.kind === "string" && typeof kept.action === "string"
    ) return { text: kept.text, kind: kept.kind, action: kept.action };
  } catch {
    // Unreadable: fall back to the first bundled sample.
  }
  return null;
}
