/**
 * A writer of the Prometheus text exposition format (version 0.0.4): one `# HELP` and one
 * `# TYPE` line per metric family, then its samples. Label values are escaped (backslash,
 * double quote, line feed) and HELP texts too (backslash, line feed), so a label that comes
 * from a sender (an event kind, a platform) can never break a line.
 */

/** The media type of the text format. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** The kinds of metric families written here. */
type MetricType = "counter" | "gauge" | "histogram";

/** One sample: labels (in order) and a value; `suffix` is appended to the family name. */
export interface Sample {
  labels?: ReadonlyArray<readonly [name: string, value: string]>;
  value: number;
  suffix?: "_bucket" | "_count" | "_sum";
}

/** One metric family. */
export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Escapes a label value: `\` → `\\`, `"` → `\"`, line feed → `\n`. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
}

/** A sample value as the format writes it (`+Inf`, `-Inf`, `NaN` or a number). */
function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function formatSample(name: string, sample: Sample): string {
  const labels = sample.labels ?? [];
  for (const [label] of labels) {
    if (!LABEL_NAME.test(label)) throw new Error(`invalid label name: ${label}`);
  }
  const text = labels.map(([label, value]) => `${label}="${escapeLabelValue(value)}"`).join(",");
  return `${name}${sample.suffix ?? ""}${text ? `{${text}}` : ""} ${formatValue(sample.value)}`;
}

/** Writes metric families in the text format (ends with a line feed). */
export function writePrometheusText(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    if (!METRIC_NAME.test(family.name)) throw new Error(`invalid metric name: ${family.name}`);
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`);
    lines.push(`# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) lines.push(formatSample(family.name, sample));
  }
  return lines.join("\n") + "\n";
}
