/**
 * Structured logging: one JSON object per line with time, level, message and
 * fields. Fields whose names look like credentials are redacted, so a secret
 * or token never reaches the log.
 */

/** Severity of a log line. */
type Level = "debug" | "info" | "warn" | "error";

/** Extra structured fields on a log line. */
export type Fields = Record<string, unknown>;

/** A logger that writes JSON lines. */
export interface Logger {
  debug(message: string, fields?: Fields): void;
  info(message: string, fields?: Fields): void;
  warn(message: string, fields?: Fields): void;
  error(message: string, fields?: Fields): void;
  /** A logger whose lines all carry `fields` (for example the request id). */
  with(fields: Fields): Logger;
}

const SECRET_NAME = /secret|token|password|authorization|cookie|signature|key$/i;
const LEVELS: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Replaces the values of credential-like fields with "[redacted]", recursively. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    return { name: value.name, message: value.message, stack: value.stack };
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map((
      [k, v],
    ) => [k, SECRET_NAME.test(k) ? "[redacted]" : redact(v, depth + 1)]),
  );
}

/** Where lines go: a function that takes one serialized line. */
type Sink = (line: string, level: Level) => void;

const consoleSink: Sink = (line, level) => {
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
};

/** Creates a logger writing lines at or above `minLevel` to `sink`. */
export function createLogger(
  options: { minLevel?: Level; sink?: Sink; fields?: Fields } = {},
): Logger {
  const { minLevel = "info", sink = consoleSink, fields: base = {} } = options;
  const write = (level: Level, message: string, fields?: Fields) => {
    if (LEVELS[level] < LEVELS[minLevel]) return;
    const record = { time: new Date().toISOString(), level, message, ...base, ...fields };
    sink(JSON.stringify(redact(record)), level);
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    with: (fields) => createLogger({ minLevel, sink, fields: { ...base, ...fields } }),
  };
}
