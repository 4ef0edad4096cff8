import { ErrorPanel } from "../components/ErrorPanel.tsx";
import { HttpError } from "../lib/fresh/mod.ts";
import { define } from "../lib/state.ts";

/** The page for a failed request: an HttpError's status and message, never an exception's internals. */
export default define.page(function ErrorPage({ error }) {
  if (error instanceof HttpError) return <ErrorPanel status={error.status} title={error.message} />;
  return <ErrorPanel status={500} title="Internal server error" />;
});
