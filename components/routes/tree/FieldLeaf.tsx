/**
 * A field filter's fields: the JSONPath on a line of its own (suggested from the sample
 * payload), the operator menu, a value input that fits the operator under one "Value" label (a
 * typed value for equals, chips for `in`, a switch for `exists`, a case toggle for text), and
 * what the path finds in the sample.
 */
import {
  FIELD_OPS,
  OP_LABELS,
  opOf,
  orderValueFrom,
  scalarFrom,
  type ScalarKind,
  scalarKindOf,
  TEXT_OPS,
  VALUE_LABEL,
  withOp,
} from "../../../lib/console/field_leaf.ts";
import type { LeafFilter } from "../../../lib/console/filter_tree.ts";
import type { NodeIssue, Verdict } from "../../../lib/console/tree_check.ts";
import type { FieldOp } from "../../../lib/types.ts";
import { ChipsInput } from "../ChipsInput.tsx";
import { ERROR, INPUT, LABEL, MUTED, Switch } from "../ui.tsx";
import { controlId } from "./tree_api.ts";

function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** The fields of a field leaf. */
export function FieldLeaf(
  props: {
    nodeId: string;
    filter: LeafFilter;
    issues: NodeIssue[];
    verdict: Verdict | undefined;
    readOnly: boolean;
    onChange: (filter: LeafFilter) => void;
  },
) {
  const { filter, nodeId } = props;
  const op = opOf(filter);
  const problem = (field: string) =>
    props.issues.filter((issue) => issue.field === field).map((issue) => issue.message).join(
      "; ",
    ) ||
    undefined;
  const pathProblem = problem("path");
  const opProblem = problem("op");
  const valueProblem = problem("value") ?? problem("caseSensitive");
  const set = (change: Partial<LeafFilter>) => props.onChange({ ...filter, ...change });
  const verdict = props.verdict;
  const id = (suffix: string) => `${nodeId}-${suffix}`;
  return (
    <div class="mt-2 flex flex-col gap-2">
      <div class="flex flex-wrap items-start gap-2">
        <div class="flex w-full flex-col gap-0.5">
          <label for={controlId.path(nodeId)} class={LABEL}>Path</label>
          <input
            id={controlId.path(nodeId)}
            class={`${INPUT} font-mono`}
            list="sample-paths"
            spellcheck={false}
            autocomplete="off"
            placeholder="pull_request.labels[*].name"
            value={typeof filter.path === "string" ? filter.path : ""}
            disabled={props.readOnly}
            aria-invalid={pathProblem ? true : undefined}
            aria-describedby={pathProblem
              ? id("path-error")
              : verdict?.values
              ? id("found")
              : undefined}
            onInput={(event) => set({ path: event.currentTarget.value })}
          />
          {pathProblem && <span id={id("path-error")} class={ERROR}>{pathProblem}</span>}
        </div>
        <div class="flex min-w-36 flex-1 flex-col gap-0.5">
          <label for={controlId.op(nodeId)} class={LABEL}>Operator</label>
          <select
            id={controlId.op(nodeId)}
            class={INPUT}
            value={op ?? String(filter.op)}
            disabled={props.readOnly}
            aria-invalid={opProblem ? true : undefined}
            aria-describedby={opProblem ? id("op-error") : undefined}
            onChange={(event) =>
              props.onChange(withOp(filter, event.currentTarget.value as FieldOp))}
          >
            {op === null && <option value={String(filter.op)}>{String(filter.op)} (unknown)
            </option>}
            {FIELD_OPS.map((name) => (
              <option key={name} value={name}>{OP_LABELS[name]} ({name})</option>
            ))}
          </select>
          {opProblem && <span id={id("op-error")} class={ERROR}>{opProblem}</span>}
        </div>
        {op !== null && (
          <ValueInput
            nodeId={nodeId}
            op={op}
            filter={filter}
            problem={valueProblem}
            readOnly={props.readOnly}
            onChange={props.onChange}
          />
        )}
      </div>
      {op !== null && TEXT_OPS.has(op) && (
        <label class="flex w-fit items-center gap-2 text-xs">
          <input
            type="checkbox"
            class="h-4 w-4 accent-indigo-600"
            checked={filter.caseSensitive === true}
            disabled={props.readOnly}
            onChange={(event) => {
              const next = { ...filter };
              if (event.currentTarget.checked) next.caseSensitive = true;
              else delete next.caseSensitive;
              props.onChange(next);
            }}
          />
          Match case (otherwise “Bug” equals “bug”)
        </label>
      )}
      {verdict?.values && (
        <p id={id("found")} class={`text-xs ${MUTED}`} data-testid="found">
          {verdict.valueCount === 0
            ? "The sample has nothing at this path."
            : `Found in the sample: ${verdict.values.map(shown).join(", ")}${
              (verdict.valueCount ?? 0) > verdict.values.length
                ? ` and ${(verdict.valueCount ?? 0) - verdict.values.length} more`
                : ""
            }`}
        </p>
      )}
    </div>
  );
}

function ValueInput(
  props: {
    nodeId: string;
    op: FieldOp;
    filter: LeafFilter;
    problem: string | undefined;
    readOnly: boolean;
    onChange: (filter: LeafFilter) => void;
  },
) {
  const { op, filter, nodeId } = props;
  const valueId = controlId.value(nodeId);
  const errorId = `${nodeId}-value-error`;
  const error = props.problem && <span id={errorId} class={ERROR}>{props.problem}</span>;
  const set = (value: unknown) => props.onChange({ ...filter, value });
  const invalid = props.problem ? true : undefined;
  const describedBy = props.problem ? errorId : undefined;

  if (op === "exists") {
    const present = filter.value !== false;
    return (
      <div class="flex min-w-36 flex-1 flex-col gap-0.5">
        <span class={LABEL} id={`${valueId}-label`}>{VALUE_LABEL}</span>
        <div class="flex items-center gap-2 py-1 text-sm">
          <Switch
            id={valueId}
            checked={present}
            label={present ? "The field must be present" : "The field must be missing or null"}
            disabled={props.readOnly}
            onChange={(checked) => {
              const next = { ...filter };
              if (checked) delete next.value;
              else next.value = false;
              props.onChange(next);
            }}
          />
          <span>{present ? "must be present" : "must be missing or null"}</span>
        </div>
        {error}
      </div>
    );
  }

  if (op === "in") {
    const values = Array.isArray(filter.value) ? filter.value.map(String) : [];
    return (
      <div class="flex min-w-48 flex-[2] flex-col gap-0.5">
        <span class={LABEL} id={`${valueId}-label`}>{VALUE_LABEL}</span>
        <ChipsInput
          id={valueId}
          label={`${VALUE_LABEL} (Enter adds one)`}
          values={values}
          placeholder="bug, security"
          disabled={props.readOnly}
          problem={props.problem}
          onChange={(next) => set(next)}
        />
      </div>
    );
  }

  if (op === "eq" || op === "ne") {
    const kind = scalarKindOf(filter.value);
    return (
      <div class="flex min-w-48 flex-[2] flex-col gap-0.5">
        <span class={LABEL} id={`${valueId}-label`}>{VALUE_LABEL}</span>
        <div class="flex gap-1">
          <select
            class={`${INPUT} w-24 shrink-0`}
            aria-label="Value type"
            value={kind}
            disabled={props.readOnly}
            onChange={(event) => {
              const next = event.currentTarget.value as ScalarKind;
              set(scalarFrom(next, next === "boolean" ? "true" : String(filter.value ?? "")));
            }}
          >
            <option value="text">text</option>
            <option value="number">number</option>
            <option value="boolean">true/false</option>
            <option value="null">null</option>
          </select>
          {kind === "boolean" && (
            <select
              id={valueId}
              class={`${INPUT} min-w-0 flex-1`}
              aria-labelledby={`${valueId}-label`}
              value={String(filter.value)}
              disabled={props.readOnly}
              onChange={(event) => set(event.currentTarget.value === "true")}
            >
              <option value="true">true</option>
              <option value="false">false</option>
            </select>
          )}
          {(kind === "text" || kind === "number") && (
            <input
              id={valueId}
              class={`${INPUT} min-w-0 flex-1 font-mono`}
              aria-labelledby={`${valueId}-label`}
              inputMode={kind === "number" ? "decimal" : undefined}
              spellcheck={false}
              value={filter.value === undefined ? "" : String(filter.value)}
              disabled={props.readOnly}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onInput={(event) => set(scalarFrom(kind, event.currentTarget.value))}
            />
          )}
        </div>
        {error}
      </div>
    );
  }

  const order = op === "gt" || op === "gte" || op === "lt" || op === "lte";
  const hint = op === "regex" ? "an RE2 pattern" : order ? "a number or an ISO-8601 time" : null;
  const hintId = `${valueId}-hint`;
  return (
    <div class="flex min-w-48 flex-[2] flex-col gap-0.5">
      <label for={valueId} class={LABEL}>{VALUE_LABEL}</label>
      <input
        id={valueId}
        class={`${INPUT} font-mono`}
        spellcheck={false}
        placeholder={op === "regex" ? "^release/" : order ? "100" : ""}
        value={filter.value === undefined || filter.value === null ? "" : String(filter.value)}
        disabled={props.readOnly}
        aria-invalid={invalid}
        aria-describedby={describedBy ?? (hint ? hintId : undefined)}
        onInput={(event) =>
          set(order ? orderValueFrom(event.currentTarget.value) : event.currentTarget.value)}
      />
      {error ?? (hint && <span id={hintId} class={`text-xs ${MUTED}`}>{hint}</span>)}
    </div>
  );
}
