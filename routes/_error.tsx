import { ErrorPanel } from "../components/ErrorPanel.tsx";
import type { ErrorPageProps } from "../lib/fresh/types.ts";

/** The page for a failed request; internals never reach it, only the status message. */
export default function ErrorPage({ status, message }: ErrorPageProps) {
  return <ErrorPanel status={status} title={message} />;
}
