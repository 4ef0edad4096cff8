/**
 * The OpenAPI 3.1 document served at `GET /openapi.json`: every admin API endpoint (from the
 * registry in `endpoints.ts`), the action API, the invite page and the document itself. Bodies,
 * queries and answers are zod's JSON Schema output of the schemas that validate them; shared
 * shapes (Route, Group, FilterNode …) are components referenced by `$ref`.
 */
import { z } from "zod";
import { CSRF_FIELD } from "../auth/access.ts";
import {
  filterNodeSchema,
  filterSchema,
  fragmentSchema,
  groupSchema,
  routeSchema,
  targetRefSchema,
  targetSchema,
} from "../model/schema.ts";
import { richHeaderQuerySchema } from "../chatops/telegram/rich_header.ts";
import { routeDigestSchema } from "../model/noise_options.ts";
import { closeSchema, commentSchema, mergeSchema, reactSchema } from "../github/actions.ts";
import { ID_FORMATS } from "../ids.ts";
import { type Endpoint, pathIdKinds } from "./endpoint.ts";
import { ADMIN_ENDPOINTS } from "./endpoints.ts";
import * as s from "./schemas.ts";

/** How an endpoint outside the admin API is called. */
interface OtherEndpoint extends Endpoint {
  auth: "bearer" | "session" | "none";
  /** Answers an HTML page (and takes a form body) rather than JSON. */
  page?: boolean;
}

const ok = z.object({ ok: z.literal(true) });
const inviteForm = z.object({
  token: z.string(),
  [CSRF_FIELD]: z.string().describe("the session's form token"),
});
const tokenQuery = z.object({ token: z.string() });

/** Endpoints outside `/admin/api` that the document describes too. */
const OTHER_ENDPOINTS: readonly OtherEndpoint[] = [
  {
    method: "POST",
    path: "/api/comment",
    summary: "Comment on an issue or pull request as the bearer's GitHub user",
    access: "bearer token",
    auth: "bearer",
    body: commentSchema,
    response: ok.extend({ id: z.number().int(), url: z.string() }),
    status: 201,
  },
  {
    method: "POST",
    path: "/api/merge",
    summary: "Merge a pull request",
    access: "bearer token",
    auth: "bearer",
    body: mergeSchema,
    response: ok.extend({ sha: z.string() }),
  },
  {
    method: "POST",
    path: "/api/close",
    summary: "Close a pull request",
    access: "bearer token",
    auth: "bearer",
    body: closeSchema,
    response: ok,
  },
  {
    method: "POST",
    path: "/api/react",
    summary: "Add a reaction to an issue or pull request",
    access: "bearer token",
    auth: "bearer",
    body: reactSchema,
    response: ok.extend({ id: z.number().int() }),
  },
  {
    method: "GET",
    path: "/api/richheader",
    summary: "Open Graph page for a Telegram notification's link-preview card (cacheable)",
    access: "anyone",
    auth: "none",
    page: true,
    query: richHeaderQuerySchema,
    response: z.string(),
  },
  {
    method: "GET",
    path: "/admin/invite",
    summary: "Invite page: shows the group and role, with a button to join " +
      "(signs in first and comes back)",
    access: "any signed-in user",
    auth: "session",
    page: true,
    query: tokenQuery,
    response: z.string(),
  },
  {
    method: "POST",
    path: "/admin/invite",
    summary: "Accept an invite: join its group with its role; redirects to /admin?invite=ok",
    access: "any signed-in user (same-origin form)",
    auth: "session",
    page: true,
    body: inviteForm,
    response: z.string(),
    status: 303,
  },
  {
    method: "GET",
    path: "/openapi.json",
    summary: "This document",
    access: "anyone",
    auth: "none",
    response: z.record(z.string(), z.unknown()),
  },
];

const SHARED: Record<string, z.ZodType> = {
  Route: routeSchema,
  RouteDigest: routeDigestSchema,
  Group: groupSchema,
  Fragment: fragmentSchema,
  FilterNode: filterNodeSchema,
  Filter: filterSchema,
  Target: targetSchema,
  TargetRef: targetRefSchema,
  SendLog: s.sendLogSchema,
  AuditEntry: s.auditEntrySchema,
  Error: s.errorSchema,
};

type JsonSchema = Record<string, unknown>;

const capitalized = (name: string) => name[0].toUpperCase() + name.slice(1);

/** Every endpoint with the names its schemas get as components. */
function allEndpoints(): { name: string; endpoint: Endpoint | OtherEndpoint }[] {
  const admin = Object.entries(ADMIN_ENDPOINTS).map(([name, endpoint]) => ({ name, endpoint }));
  const other = OTHER_ENDPOINTS.map((endpoint) => ({
    name: `${endpoint.method.toLowerCase()}${
      endpoint.path.split(/[/._-]/).filter(Boolean).map(capitalized).join("")
    }`,
    endpoint,
  }));
  return [...admin, ...other];
}

const SHARED_DEFS = "#/components/schemas/__shared#/$defs/";

/**
 * Definitions zod extracts on its own (recursive shapes) land in a `__shared` entry; each
 * becomes a component of its own: the component that is only a reference to it takes its
 * place (so `FilterNode` holds the tree), and every reference is pointed there.
 */
function liftSharedDefinitions(schemas: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const { __shared: shared, ...named } = schemas;
  const defs = (shared?.$defs ?? {}) as Record<string, JsonSchema>;
  const aliases = new Map<string, string>();
  for (const def of Object.keys(defs)) {
    const alias = Object.entries(named).find(([, schema]) =>
      Object.keys(schema).length === 1 && schema.$ref === SHARED_DEFS + def
    )?.[0];
    aliases.set(def, alias ?? `Shared${capitalized(def)}`);
  }
  const lifted = { ...named };
  for (const [def, schema] of Object.entries(defs)) lifted[aliases.get(def)!] = schema;
  const text = JSON.stringify(lifted).replaceAll(
    /#\/components\/schemas\/__shared#\/\$defs\/(\w+)/g,
    (_, def: string) => `#/components/schemas/${aliases.get(def)}`,
  );
  return JSON.parse(text);
}

/** Converts every schema once, with shared shapes as `#/components/schemas/…` references. */
function componentSchemas(named: Map<z.ZodType, string>): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, {
    io: "input",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  });
  const schemas: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(converted.schemas)) {
    const { $schema: _schema, $id: _id, ...rest } = schema as JsonSchema;
    schemas[id] = rest;
  }
  return liftSharedDefinitions(schemas);
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function pathParameters(path: string) {
  return pathIdKinds(path).map(([name, kind]) => ({
    name,
    in: "path",
    required: true,
    description: ID_FORMATS[kind].description,
    schema: { type: "string", pattern: ID_FORMATS[kind].pattern.source },
  }));
}

function queryParameters(schema: JsonSchema | undefined) {
  if (!schema) return [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(property.description ? { description: property.description } : {}),
    schema: property,
  }));
}

function errorResponses(endpoint: Endpoint | OtherEndpoint) {
  const auth = "auth" in endpoint ? endpoint.auth : "session";
  const codes: Record<string, string> = {};
  if (endpoint.body || endpoint.query || endpoint.path.includes("{")) {
    codes["400"] = "Invalid request (the message names the field)";
  }
  if (auth !== "none") codes["401"] = auth === "bearer" ? "Missing or unknown token" : "No session";
  if (auth === "session") codes["403"] = "No right to do this";
  if (endpoint.path.includes("{")) codes["404"] = "Unknown resource";
  if (endpoint.versioned && endpoint.method !== "GET") {
    codes["409"] = "Changed since it was read (If-Match)";
  }
  if (endpoint.body) {
    codes["408"] = "The body did not arrive in time";
    codes["413"] = "The body is larger than this endpoint accepts";
  }
  Object.assign(codes, endpoint.errors);
  return Object.fromEntries(
    Object.entries(codes).map(([code, description]) => [code, {
      description,
      content: { "application/json": { schema: ref("Error") } },
    }]),
  );
}

function operation(
  name: string,
  endpoint: Endpoint | OtherEndpoint,
  components: { schemas: Record<string, JsonSchema>; named: Map<z.ZodType, string> },
) {
  const auth = "auth" in endpoint ? endpoint.auth : "session";
  const page = "page" in endpoint && endpoint.page === true;
  const idOf = (schema: z.ZodType) => components.named.get(schema)!;
  const parameters = [
    ...pathParameters(endpoint.path),
    ...queryParameters(endpoint.query && components.schemas[idOf(endpoint.query)]),
  ];
  if (endpoint.versioned && endpoint.method !== "GET") {
    parameters.push({
      name: "If-Match",
      in: "header",
      required: false,
      schema: { type: "string" },
      description: "the ETag of the GET this replaces; without it the last writer wins",
    } as never);
  }
  const success: Record<string, unknown> = { description: endpoint.summary };
  if (page && endpoint.status === 303) {
    success.headers = { Location: { schema: { type: "string" } } };
  } else if (page) success.content = { "text/html": { schema: { type: "string" } } };
  else success.content = { "application/json": { schema: ref(idOf(endpoint.response)) } };
  if (endpoint.versioned && (endpoint.method === "GET" || endpoint.answersVersion)) {
    success.headers = { ETag: { schema: { type: "string" } } };
  }
  return {
    operationId: name,
    summary: endpoint.summary,
    description: `Access: ${endpoint.access}.`,
    ...(auth === "none"
      ? { security: [] }
      : auth === "bearer"
      ? { security: [{ bearer: [] }] }
      : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(endpoint.body
      ? {
        requestBody: {
          required: endpoint.bodyOptional !== true,
          content: {
            [page ? "application/x-www-form-urlencoded" : "application/json"]: {
              schema: ref(idOf(endpoint.body)),
            },
          },
        },
      }
      : {}),
    responses: { [String(endpoint.status ?? 200)]: success, ...errorResponses(endpoint) },
  };
}

function buildDocument(baseUrl: string) {
  const endpoints = allEndpoints();
  const named = new Map<z.ZodType, string>(
    Object.entries(SHARED).map(([id, schema]) => [schema, id]),
  );
  const name = (schema: z.ZodType, id: string) => {
    if (!named.has(schema)) named.set(schema, id);
  };
  for (const { name: operationName, endpoint } of endpoints) {
    const id = capitalized(operationName);
    if (endpoint.body) name(endpoint.body, `${id}Request`);
    if (endpoint.query) name(endpoint.query, `${id}Query`);
    if (!("page" in endpoint && endpoint.page)) name(endpoint.response, `${id}Response`);
  }
  const schemas = componentSchemas(named);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { name, endpoint } of endpoints) {
    (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operation(
      name,
      endpoint,
      { schemas, named },
    );
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Switchyard",
      version: "1",
      description: "Admin API and action API of the Switchyard webhook relay. Every error " +
        "answers { error }. Admin API writes from a browser must come from the same origin.",
    },
    servers: [{ url: baseUrl }],
    security: [{ session: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "switchyard_session" },
        bearer: { type: "http", scheme: "bearer" },
      },
    },
  };
}

const documents = new Map<string, ReturnType<typeof buildDocument>>();

/** The OpenAPI document for an instance at `baseUrl` (built once per address). */
export function openApiDocument(baseUrl: string): ReturnType<typeof buildDocument> {
  let document = documents.get(baseUrl);
  if (!document) documents.set(baseUrl, document = buildDocument(baseUrl));
  return document;
}
