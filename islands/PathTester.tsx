import { useComputed, useSignal } from "@preact/signals";
import { summarize } from "../lib/routing/explain.ts";
import { compilePath, validatePath } from "../lib/jsonpath/path.ts";

const MAX_SHOWN = 50;
const MAX_SHOWN_CHARS = 2000;

/** A value as JSON, cut when long; a summary when it cannot be written (too deep). */
function display(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? "undefined";
    return text.length > MAX_SHOWN_CHARS ? text.slice(0, MAX_SHOWN_CHARS - 1) + "…" : text;
  } catch {
    return String(summarize(value));
  }
}

type Outcome =
  | { kind: "error"; message: string }
  | { kind: "values"; values: readonly unknown[] };

function evaluate(payloadText: string, path: string): Outcome {
  let payload: unknown;
  try {
    payload = JSON.parse(payloadText);
  } catch (error) {
    return { kind: "error", message: `Payload is not valid JSON: ${(error as Error).message}` };
  }
  const problem = validatePath(path);
  if (problem) return { kind: "error", message: problem };
  try {
    return { kind: "values", values: compilePath(path)(payload) };
  } catch (error) {
    return { kind: "error", message: (error as Error).message };
  }
}

/** Live JSONPath evaluation over a pasted payload, with the filter engine's own resolver. */
export default function PathTester(props: { payload: string; path: string }) {
  const payload = useSignal(props.payload);
  const path = useSignal(props.path);
  const outcome = useComputed(() => evaluate(payload.value, path.value));
  const result = outcome.value;
  return (
    <div class="mt-4 grid gap-4 md:grid-cols-2">
      <label class="flex flex-col gap-1 text-sm font-medium">
        Payload (JSON)
        <textarea
          data-testid="payload"
          class="h-72 rounded-md border border-slate-300 bg-white p-2 font-mono text-xs dark:border-slate-600 dark:bg-slate-800"
          spellcheck={false}
          value={payload.value}
          onInput={(e) => payload.value = e.currentTarget.value}
        />
      </label>
      <div class="flex flex-col gap-3">
        <label class="flex flex-col gap-1 text-sm font-medium">
          Path
          <input
            data-testid="path"
            class="rounded-md border border-slate-300 bg-white p-2 font-mono text-sm dark:border-slate-600 dark:bg-slate-800"
            spellcheck={false}
            value={path.value}
            onInput={(e) => path.value = e.currentTarget.value}
          />
        </label>
        <div data-testid="result" aria-live="polite" class="text-sm">
          {result.kind === "error"
            ? <p data-testid="error" class="text-red-700 dark:text-red-300">{result.message}</p>
            : (
              <>
                <p data-testid="count" class="text-slate-600 dark:text-slate-400">
                  {result.values.length === 0
                    ? "No values: a filter on this path sees a missing field."
                    : `${result.values.length} value${result.values.length === 1 ? "" : "s"}`}
                </p>
                <ol class="mt-2 flex flex-col gap-1">
                  {result.values.slice(0, MAX_SHOWN).map((value, i) => (
                    <li
                      key={i}
                      data-testid="value"
                      class="rounded bg-slate-100 px-2 py-1 font-mono text-xs break-all dark:bg-slate-800"
                    >
                      {display(value)}
                    </li>
                  ))}
                </ol>
              </>
            )}
        </div>
      </div>
    </div>
  );
}
