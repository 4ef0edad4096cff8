import { ErrorPanel } from "../components/ErrorPanel.tsx";
import type { ErrorPageProps } from "../lib/fresh/types.ts";

/** The page for an unknown address. */
export default function NotFound({ url }: ErrorPageProps) {
  return (
    <ErrorPanel status={404} title="Page not found" detail={`Nothing lives at ${url.pathname}.`} />
  );
}
