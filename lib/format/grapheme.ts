/**
 * Grapheme cluster boundaries at a cut, so a cut text never ends in part of what a reader
 * sees as one character (a family emoji's ZWJ sequence, a flag's two regional indicators, a
 * letter and its combining accent). Only the text just before the cut is segmented: from the
 * nearest point that is certainly a boundary, found by looking at code units alone.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Printable ASCII: no grapheme rule joins two such characters. */
function isPlainAscii(unit: number): boolean {
  return unit >= 0x20 && unit <= 0x7e;
}

/** Whether a cluster certainly starts at `offset`: the start, after a line feed, or between plain ASCII. */
function certainBoundary(text: string, offset: number): boolean {
  if (offset <= 0) return true;
  const before = text.charCodeAt(offset - 1);
  return before === 0x0a || (isPlainAscii(before) && isPlainAscii(text.charCodeAt(offset)));
}

/**
 * The start of the grapheme cluster `offset` (a UTF-16 index) falls in: `offset` itself when
 * a cluster starts there or it is at the text's end, else the earlier index where that
 * cluster starts. Cutting a text at the result never splits a cluster.
 */
export function clusterStart(text: string, offset: number): number {
  if (offset >= text.length) return text.length;
  if (certainBoundary(text, offset)) return Math.max(offset, 0);
  let from = offset - 1;
  while (!certainBoundary(text, from)) from--;
  // Whether a cluster starts at `offset` depends on what comes before it and the code point at it.
  const window = text.slice(from, offset + 2);
  return from + segmenter.segment(window).containing(offset - from)!.index;
}
