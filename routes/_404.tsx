import { ErrorPanel } from "../components/ErrorPanel.tsx";
import { define } from "../lib/state.ts";

/** The page for an unknown address. */
export default define.page(function NotFound({ url }) {
  return (
    <ErrorPanel status={404} title="Page not found" detail={`Nothing lives at ${url.pathname}.`} />
  );
});
