/**
 * The route editor's "Message template" section: a title and a body in the template language
 * (docs/templates.md), checked as you type by the same parser the API uses. Collapsed until
 * opened; an empty body means the route sends the built-in message. The live preview is the
 * editor's message preview, which renders with the template.
 */
import { useMemo } from "preact/hooks";
import { TEMPLATE_BODY_MAX_LENGTH, TEMPLATE_TITLE_MAX_LENGTH } from "../../lib/limits.ts";
import { templateError } from "../../lib/template/mod.ts";
import type { Route, RouteTemplate } from "../../lib/types.ts";
import { ERROR, INPUT, LABEL, MUTED, PANEL } from "./ui.tsx";

/** The template as the form holds it: both parts as typed. */
export interface TemplateText {
  title: string;
  body: string;
}

/** The form's text for a route's template (empty when it has none). */
export function templateTextOf(template: RouteTemplate | undefined): TemplateText {
  return { title: template?.title ?? "", body: template?.body ?? "" };
}

/** The template the form describes, or undefined when its body is empty. */
export function templateOf(text: TemplateText): RouteTemplate | undefined {
  if (text.body.trim() === "") return undefined;
  return text.title.trim() === "" ? { body: text.body } : { title: text.title, body: text.body };
}

/** The route with `template` set, or without one. */
export function withTemplate(route: Route, template: RouteTemplate | undefined): Route {
  const { template: _old, ...rest } = route;
  return template ? { ...rest, template } : rest;
}

const EXAMPLE =
  '{{bold sender.login}} {{action}} {{link pull_request.html_url "the pull request"}}';

/** The "Message template" section. */
export function TemplateEditor(
  props: { text: TemplateText; readOnly: boolean; onText: (text: TemplateText) => void },
) {
  const template = templateOf(props.text);
  const problem = useMemo(() => (template ? templateError(template) : null), [
    template?.title,
    template?.body,
  ]);
  const titleProblem = problem?.startsWith("title: ") ? problem.slice(7) : null;
  const bodyProblem = problem?.startsWith("body: ") ? problem.slice(6) : null;
  const change = (part: keyof TemplateText, value: string) =>
    props.onText({ ...props.text, [part]: value });
  return (
    <section aria-label="Message template" class={`${PANEL} p-4 sm:p-5`}>
      <details data-testid="template-editor">
        <summary class="w-fit cursor-pointer text-base font-semibold">
          Message template{" "}
          <span class={`text-xs font-normal ${MUTED}`}>
            {template ? "(in use)" : "(built-in message)"}
          </span>
        </summary>
        <p class={`mt-2 text-xs ${MUTED}`}>
          Replaces the message text for this route. Values from the event go in double braces
          (<code>{"{{pull_request.title}}"}</code>); blocks <code>{"{{#if …}}"}</code> and{" "}
          <code>{"{{#each …}}"}</code>; helpers <code>link</code>, <code>code</code>,{" "}
          <code>bold</code>, <code>italic</code>, <code>quote</code>,{" "}
          <code>truncate</code>. Leave the body empty to send the built-in message.
        </p>
        <div class="mt-3 flex flex-col gap-3">
          <div class="flex flex-col gap-0.5">
            <label for="template-title" class={LABEL}>Title (optional)</label>
            <input
              id="template-title"
              class={`${INPUT} font-mono`}
              value={props.text.title}
              maxLength={TEMPLATE_TITLE_MAX_LENGTH}
              placeholder="{{pull_request.title}}"
              disabled={props.readOnly}
              aria-invalid={titleProblem ? true : undefined}
              aria-describedby={titleProblem ? "template-title-error" : undefined}
              onInput={(event) => change("title", event.currentTarget.value)}
            />
            {titleProblem && <span id="template-title-error" class={ERROR}>{titleProblem}</span>}
          </div>
          <div class="flex flex-col gap-0.5">
            <label for="template-body" class={LABEL}>Body</label>
            <textarea
              id="template-body"
              class={`${INPUT} h-40 font-mono text-xs`}
              spellcheck={false}
              value={props.text.body}
              maxLength={TEMPLATE_BODY_MAX_LENGTH}
              placeholder={EXAMPLE}
              disabled={props.readOnly}
              aria-invalid={bodyProblem ? true : undefined}
              aria-describedby={bodyProblem ? "template-body-error" : "template-body-hint"}
              onInput={(event) => change("body", event.currentTarget.value)}
            />
            {bodyProblem
              ? <span id="template-body-error" class={ERROR} role="status">{bodyProblem}</span>
              : (
                <span id="template-body-hint" class={`text-xs ${MUTED}`}>
                  {props.text.title.trim() !== "" && !template
                    ? "A title takes effect only with a body."
                    : "The message preview shows the sample event with this template."}
                </span>
              )}
          </div>
        </div>
      </details>
    </section>
  );
}
