/**
 * The filter tree explained against the sample event: computed in the browser with the
 * matcher's own code, then confirmed by the API's test-match once the tree has settled.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import type { TreeNode } from "../../../lib/console/filter_tree.ts";
import { adminApi } from "../../api/admin_api.ts";
import { explainTree, type SampleEvent, type TreeIssues } from "../../../lib/console/tree_check.ts";
import type { FilterNode } from "../../../lib/types.ts";

/** How long the tree must stay unchanged before the server confirms the explanation. */
const CONFIRM_DELAY_MS = 300;

type ServerCheck = { key: string; matched: boolean } | { key: string; error: string };

/**
 * The explanation of `tree` (`node` is its filter) for `event`, and what the server says of
 * it. `sampleLength` tells samples of the same event apart.
 */
export function useExplanation(
  tree: { tree: TreeNode; node: FilterNode; issues: TreeIssues },
  event: SampleEvent | null,
  sampleLength: number,
) {
  const { node, issues } = tree;
  const explained = useMemo(
    () => event ? explainTree(tree.tree, issues, event) : null,
    [tree.tree, issues, event],
  );
  const [serverCheck, setServerCheck] = useState<ServerCheck | null>(null);

  // The server's word on the explanation, once the tree has settled.
  const checkKey = event && issues.count === 0
    ? JSON.stringify([node, event.kind, event.action, sampleLength])
    : null;
  useEffect(() => {
    if (!checkKey || !event) return;
    let current = true;
    const timer = setTimeout(() => {
      const pattern = event.action ? `${event.kind}.${event.action}` : event.kind;
      adminApi("POST /admin/api/test-match", {
        body: { node, event: pattern, payload: event.payload },
      }).then(
        (answer) => current && setServerCheck({ key: checkKey, matched: answer.data.matched }),
        (error) => current && setServerCheck({ key: checkKey, error: (error as Error).message }),
      );
    }, CONFIRM_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [checkKey]);

  const server = serverCheck && checkKey === serverCheck.key && explained?.ok
    ? "error" in serverCheck
      ? { text: `The server could not check it: ${serverCheck.error}`, ok: false }
      : serverCheck.matched === explained.matched
      ? { text: "The server's test-match agrees.", ok: true }
      : {
        text: `The server's test-match says it ${
          serverCheck.matched ? "matches" : "does not match"
        }.`,
        ok: false,
      }
    : null;
  return { explained, server };
}
