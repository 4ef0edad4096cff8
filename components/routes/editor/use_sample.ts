/**
 * The route editor's sample event: a bundled sample, a recent event of the group or a pasted
 * payload, loaded when chosen, parsed, and offered to the filter tree as the event to explain.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import { adminApi, siteJson } from "../../api/admin_api.ts";
import { inferEvent, SAMPLES, sampleUrl } from "../../../lib/console/samples.ts";
import type { SampleEvent } from "../../../lib/console/tree_check.ts";
import { PASTED, recentEventOf, recentSource } from "../SamplePanel.tsx";
import type { Status } from "../StatusToast.tsx";
import { readPastedSample } from "./pasted_sample.ts";

/** The sample as the editor holds it. */
export interface SampleState {
  source: string;
  text: string;
  kind: string;
  action: string;
  loading: boolean;
}

/** Which sample the editor opens with (see the route editor's props). */
export interface SampleChoice {
  sampleEventId: string | null;
  sampleChoice?: string | null;
}

/** The sample first shown: the named recent event, the chosen sample, or the first bundled one. */
function initialSample(props: SampleChoice): SampleState {
  if (props.sampleEventId) {
    return {
      source: recentSource(props.sampleEventId),
      text: "",
      kind: "",
      action: "",
      loading: true,
    };
  }
  if (props.sampleChoice === PASTED) {
    return { source: PASTED, text: "", kind: "", action: "", loading: true };
  }
  const chosen = SAMPLES.find((entry) => entry.id === props.sampleChoice) ?? SAMPLES[0];
  return {
    source: chosen.id,
    text: "",
    kind: chosen.kind,
    action: chosen.action ?? "",
    loading: true,
  };
}

/** The query of the editor opened after creating a route: "saved", and the sample in use. */
export function savedQuery(sample: SampleState): string {
  const query = new URLSearchParams({ saved: "1" });
  const eventId = recentEventOf(sample.source);
  if (eventId !== null) query.set("event", eventId);
  else query.set("sample", sample.source);
  return query.toString();
}

/** The sample of the group `groupId`'s editor; load failures are said through `onStatus`. */
export function useSample(
  groupId: string,
  choice: SampleChoice,
  onStatus: (status: Status) => void,
) {
  const [sample, setSample] = useState<SampleState>(() => initialSample(choice));

  // A pasted sample the browser kept while the editor reloaded after creating the route.
  useEffect(() => {
    if (sample.source !== PASTED || !sample.loading) return;
    const kept = readPastedSample(groupId);
    setSample(
      kept ? { ...kept, source: PASTED, loading: false } : initialSample({
        sampleEventId: null,
      }),
    );
  }, []);

  // The sample: load a bundled one, or a recent event of the group, when chosen.
  useEffect(() => {
    if (sample.source === PASTED) return;
    const eventId = recentEventOf(sample.source);
    const chosen = SAMPLES.find((entry) => entry.id === sample.source);
    if (!chosen && eventId === null) return;
    let current = true;
    const loaded = eventId !== null
      ? adminApi("GET /admin/api/groups/{id}/events/{eventId}", {
        params: { id: groupId, eventId },
      }).then(({ data: { event, payload } }) => {
        if (payload === null) throw new Error("its payload is past retention");
        return { payload, kind: event.kind, action: event.action };
      })
      : siteJson<unknown>(sampleUrl(chosen!)).then((payload) => ({
        payload,
        kind: chosen!.kind,
        action: chosen!.action,
      }));
    loaded.then(
      ({ payload, kind, action }) => {
        if (!current) return;
        setSample({
          source: sample.source,
          text: JSON.stringify(payload, null, 2),
          kind,
          action: action ?? "",
          loading: false,
        });
      },
      (error) => {
        if (!current) return;
        setSample((state) => ({ ...state, loading: false }));
        onStatus({ text: `The sample could not be loaded: ${error.message}`, tone: "error" });
      },
    );
    return () => {
      current = false;
    };
  }, [sample.source]);

  const parsed = useMemo((): { payload?: Record<string, unknown>; error: string | null } => {
    if (sample.loading) return { payload: undefined, error: null };
    if (sample.text.trim() === "") return { payload: undefined, error: "Paste a JSON payload." };
    try {
      const payload = JSON.parse(sample.text);
      if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
        return { payload: undefined, error: "The payload must be a JSON object." };
      }
      return { payload, error: null };
    } catch (error) {
      return { payload: undefined, error: `Not valid JSON: ${(error as Error).message}` };
    }
  }, [sample.text, sample.loading]);

  const event = useMemo((): SampleEvent | null => {
    if (parsed.payload === undefined || sample.kind === "") return null;
    return {
      kind: sample.kind,
      action: sample.action === "" ? undefined : sample.action,
      payload: parsed.payload,
    };
  }, [parsed.payload, sample.kind, sample.action]);

  return {
    sample,
    parsed,
    /** The sample as an event to explain; null while none is usable. */
    event,
    /** Another sample chosen: a bundled one or a recent event loads, a pasted one stays. */
    choose(source: string) {
      setSample((state) =>
        source === PASTED ? { ...state, source } : { ...state, source, loading: true }
      );
    },
    /** A pasted payload: its event kind and action are guessed from it when they can be. */
    paste(text: string) {
      let inferred: { kind: string; action?: string } | null = null;
      try {
        inferred = inferEvent(JSON.parse(text));
      } catch {
        inferred = null;
      }
      setSample((state) => ({
        ...state,
        source: PASTED,
        text,
        kind: inferred?.kind ?? state.kind,
        action: inferred ? inferred.action ?? "" : state.action,
      }));
    },
    setKind: (kind: string) => setSample((state) => ({ ...state, kind })),
    setAction: (action: string) => setSample((state) => ({ ...state, action })),
  };
}

/** The sample model {@link useSample} answers. */
export type SampleModel = ReturnType<typeof useSample>;
