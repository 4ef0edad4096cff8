/**
 * What the console's filtered list pages share: their GET form's fields read from the page's
 * address (send logs, audit, a group's events), and for the send logs and audit pages a `to` day
 * read as the end of that day and one page asked of the same function as the API, a 4xx refusal
 * shown on the page instead of thrown.
 */
import type { z } from "zod";
import { formatZodError } from "../model/schema.ts";
import { HttpError } from "../fresh/http_error.ts";
import type { Page } from "./pages.ts";

/** A UTC day as the form's day fields give it. */
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The `fields` of a page address, trimmed; empty ones and any others left out. */
export function readFilters<Field extends string>(
  params: URLSearchParams,
  fields: readonly Field[],
): Partial<Record<Field, string>> {
  const filters: Partial<Record<Field, string>> = {};
  for (const field of fields) {
    const value = params.get(field)?.trim();
    if (value) filters[field] = value;
  }
  return filters;
}

/** A `to` filter for the API: a bare day (`YYYY-MM-DD`) ends at its last UTC millisecond. */
export function endOfDay(to: string): string {
  return DAY.test(to) ? `${to}T23:59:59.999Z` : to;
}

/** One page's entries and next cursor, or why the filters could not be applied. */
export type PageOrRefusal<T> = { items: T[]; next?: string } | { error: string; status: number };

/**
 * Validates `query` with `schema` and loads the page: a validation message (its field names
 * put in the form's by `formNames`) is a 400 refusal, and so is any `HttpError` below 500 with
 * its own status; anything else is thrown.
 */
export async function loadPageOrRefusal<Schema extends z.ZodType, T>(
  schema: Schema,
  query: Record<string, string>,
  formNames: (message: string) => string,
  load: (query: z.output<Schema>) => Promise<Page<T>>,
): Promise<PageOrRefusal<T>> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) return { error: formNames(formatZodError(parsed.error)), status: 400 };
  try {
    const page = await load(parsed.data);
    return { items: page.items, next: page.cursor };
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      return { error: error.message, status: error.status };
    }
    throw error;
  }
}
