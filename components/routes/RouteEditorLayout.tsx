import type { ComponentChildren } from "preact";
import { ConsoleLayout } from "../ConsoleLayout.tsx";
import { PageBody } from "./ui.tsx";
import RouteEditor from "../../islands/console/routes/RouteEditor.tsx";
import type { RouteEditorPageData } from "../../lib/admin/console_routes.ts";

/** A route editor page: the console frame around the editor island, with `children` below it. */
export function RouteEditorLayout(props: {
  data: RouteEditorPageData;
  title: string;
  /** Show "saved" once (the page was opened right after creating the route). */
  justSaved: boolean;
  /** The bundled sample (or `pasted`) to explain against first; see the island's props. */
  sampleChoice?: string | null;
  children?: ComponentChildren;
}) {
  // the page's data but the frame is what the island takes (see readRouteEditorPage)
  const { frame, ...editor } = props.data;
  return (
    <ConsoleLayout
      active="/admin/routes"
      title={props.title}
      {...frame}
      currentGroup={editor.group.id}
    >
      <PageBody>
        <RouteEditor {...editor} sampleChoice={props.sampleChoice} justSaved={props.justSaved} />
        {props.children}
      </PageBody>
    </ConsoleLayout>
  );
}
