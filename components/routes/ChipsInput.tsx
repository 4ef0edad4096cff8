/**
 * A list of short values as chips: type a value and press Enter (or a comma) to add it,
 * Backspace in the empty box removes the last one, each chip has a remove button. A chip whose
 * value has a problem is marked and the problem shown below.
 */
import { useState } from "preact/hooks";
import { ERROR, INPUT } from "./ui.tsx";

/** Chips for `values`; `problems` maps a chip's index to its problem. */
export function ChipsInput(
  props: {
    id: string;
    label: string;
    values: string[];
    onChange: (values: string[]) => void;
    placeholder?: string;
    problems?: Map<number, string>;
    /** A problem of the whole list. */
    problem?: string;
    disabled?: boolean;
    testId?: string;
  },
) {
  const [text, setText] = useState("");
  const add = () => {
    const parts = text.split(",").map((part) => part.trim()).filter((part) => part !== "");
    if (parts.length === 0) return;
    props.onChange([...props.values, ...parts]);
    setText("");
  };
  const errorId = `${props.id}-error`;
  const problems = [...(props.problems ?? new Map()).entries()];
  return (
    <div>
      <div
        class={`${INPUT} flex flex-wrap items-center gap-1.5 py-1`}
        data-testid={props.testId}
        aria-invalid={problems.length > 0 || props.problem ? true : undefined}
      >
        {props.values.map((value, index) => (
          <span
            key={`${index}-${value}`}
            data-testid="chip"
            class={`inline-flex max-w-full items-center gap-1 rounded-full px-2 py-0.5 font-mono text-xs ${
              props.problems?.has(index)
                ? "bg-red-100 text-red-900 dark:bg-red-900/60 dark:text-red-100"
                : "bg-indigo-100 text-indigo-900 dark:bg-indigo-900/60 dark:text-indigo-100"
            }`}
          >
            <span class="break-all" data-testid="chip-text">{value}</span>
            {!props.disabled && (
              <button
                type="button"
                class="rounded-full px-1 leading-none hover:bg-black/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                aria-label={`Remove ${value}`}
                onClick={() => props.onChange(props.values.filter((_, i) => i !== index))}
              >
                ×
              </button>
            )}
          </span>
        ))}
        {!props.disabled && (
          <input
            id={props.id}
            class="min-w-24 flex-1 bg-transparent py-0.5 text-sm focus:outline-none"
            aria-label={props.label}
            aria-describedby={problems.length > 0 || props.problem ? errorId : undefined}
            placeholder={props.values.length === 0 ? props.placeholder : "add another"}
            value={text}
            onInput={(event) => {
              const parts = event.currentTarget.value.split(",");
              const rest = parts.pop() ?? "";
              const added = parts.map((part) => part.trim()).filter((part) => part !== "");
              if (added.length > 0) props.onChange([...props.values, ...added]);
              setText(rest);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                add();
              } else if (event.key === "Backspace" && text === "" && props.values.length > 0) {
                props.onChange(props.values.slice(0, -1));
              }
            }}
            onBlur={add}
          />
        )}
      </div>
      {(problems.length > 0 || props.problem) && (
        <p id={errorId} class={`mt-1 ${ERROR}`}>
          {props.problem}
          {problems.map(([index, message]) => `“${props.values[index]}”: ${message}`).join("; ")}
        </p>
      )}
    </div>
  );
}
