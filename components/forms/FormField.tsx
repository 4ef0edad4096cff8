/**
 * One labelled text field for every console form: the label tied to its input, and a problem
 * (or else a hint) under it that the input names with `aria-describedby`, marking it invalid
 * while a problem shows. Each area of the console keeps its own look ({@link FieldLook}).
 */
import type { ComponentChildren, JSX } from "preact";

/** The class names of a field's parts. */
export interface FieldLook {
  /** The box around label, input and message. */
  box: string;
  label: string;
  input: string;
  problem: string;
  hint: string;
}

/** Input attributes a field passes on as they are. */
type InputAttributes = Pick<
  JSX.InputHTMLAttributes<HTMLInputElement>,
  | "type"
  | "required"
  | "maxLength"
  | "placeholder"
  | "pattern"
  | "title"
  | "readOnly"
  | "disabled"
  | "spellcheck"
  | "autocomplete"
>;

/** A labelled input; `box` replaces the look's box classes (for a field's place in a grid). */
export function FormField(
  props: InputAttributes & {
    look: FieldLook;
    id: string;
    label: ComponentChildren;
    value: string;
    onValue: (value: string) => void;
    /** Monospace text (ids, chat ids). */
    mono?: boolean;
    /** An identifier: monospace, neither spell-checked nor filled in by the browser. */
    code?: boolean;
    box?: string;
    problem?: string;
    hint?: ComponentChildren;
  },
) {
  const { look, id, label, value, onValue, mono, code, box, problem, hint, ...input } = props;
  const message = problem ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div class={box ?? look.box}>
      <label for={id} class={look.label}>{label}</label>
      <input
        {...(code ? { spellcheck: false, autocomplete: "off" } : {})}
        {...input}
        id={id}
        class={mono || code ? `${look.input} font-mono` : look.input}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={message}
        onInput={(event) => onValue(event.currentTarget.value)}
      />
      {problem
        ? <span id={`${id}-error`} class={look.problem}>{problem}</span>
        : hint && <span id={`${id}-hint`} class={look.hint}>{hint}</span>}
    </div>
  );
}
