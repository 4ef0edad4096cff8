/**
 * Every admin API endpoint, once: method, path, who may call it, and the schemas of its query,
 * body and answer. Route files build their handlers from these entries (`apiHandler`), and the
 * OpenAPI document is generated from them, so validation and documentation share one source.
 */
import { groupSchema } from "../model/schema.ts";
import {
  configDocumentSchema,
  exportQuerySchema,
  importAnswerSchema,
  importQuerySchema,
} from "../ops/config_document.ts";
import { defineEndpoint } from "./endpoint.ts";
import { REMINDER_ENDPOINTS } from "./reminder_endpoints.ts";
import * as s from "./schemas.ts";
import * as rs from "./replay_schemas.ts";

const SIGNED_IN = "any console user";
const READ = "super admin, or any member of the group";
const EDIT = "super admin, or an owner or admin of the group";
const OWN = "super admin, or an owner of the group";

/** The admin API, by operation name. */
export const ADMIN_ENDPOINTS = {
  me: defineEndpoint({
    method: "GET",
    path: "/admin/api/me",
    summary: "The signed-in user, their permission scope, groups and roles",
    access: SIGNED_IN,
    response: s.meSchema,
  }),
  getPreferences: defineEndpoint({
    method: "GET",
    path: "/admin/api/me/preferences",
    summary: "The signed-in person's own settings",
    access: SIGNED_IN,
    response: s.preferencesSchema,
  }),
  setPreferences: defineEndpoint({
    method: "PUT",
    path: "/admin/api/me/preferences",
    summary: "Replace the signed-in person's own settings (audited)",
    access: SIGNED_IN,
    body: s.preferencesSchema,
    response: s.preferencesSchema,
  }),
  listRoutes: defineEndpoint({
    method: "GET",
    path: "/admin/api/routes",
    summary: "Routes of the groups the caller can read, in stored order",
    access: SIGNED_IN,
    response: s.routesSchema,
    versioned: true,
  }),
  replaceRoutes: defineEndpoint({
    method: "PUT",
    path: "/admin/api/routes",
    summary: "Replace the routes of every group the caller may edit (all routes: super admin); " +
      "routes identical to the stored ones skip full validation",
    access: "super admin, or an owner or admin of each group whose routes change",
    body: s.routesBodySchema,
    bodyCheckedByEndpoint: true,
    response: s.okCountSchema,
    versioned: true,
  }),
  listGroups: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups",
    summary: "Groups the caller can read, with the caller's role in each",
    access: SIGNED_IN,
    response: s.groupsSchema,
    versioned: true,
  }),
  replaceGroups: defineEndpoint({
    method: "PUT",
    path: "/admin/api/groups",
    summary: "Replace groups: a super admin all of them, an owner the groups they own; " +
      "only a super admin creates groups or sets installationId and owners",
    access: "super admin, or an owner (own groups only)",
    body: s.groupsBodySchema,
    response: s.groupsReplacedSchema,
    versioned: true,
  }),
  createGroup: defineEndpoint({
    method: "POST",
    path: "/admin/api/groups",
    summary: "Create one group (409 when the id exists); answers the group's ETag",
    access: "super admin",
    body: groupSchema,
    response: s.groupWrittenSchema,
    status: 201,
    errors: { "409": "A group with this id exists" },
  }),
  getGroup: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}",
    summary: "One group, with its own ETag (changes only when this group changes)",
    access: READ,
    response: groupSchema,
    versioned: true,
    digestVersion: true,
  }),
  replaceGroup: defineEndpoint({
    method: "PUT",
    path: "/admin/api/groups/{id}",
    summary: "Replace one group (members, name, providers); the body's id must be the path's; " +
      "only a super admin sets installationId and owners; answers the group's new ETag",
    access: OWN,
    body: groupSchema,
    response: s.groupWrittenSchema,
    versioned: true,
    digestVersion: true,
  }),
  deleteGroup: defineEndpoint({
    method: "DELETE",
    path: "/admin/api/groups/{id}",
    summary: "Delete one group with its routes, fragments, allowed targets, webhook secret " +
      "and invites",
    access: OWN,
    response: s.okSchema,
    versioned: true,
    digestVersion: true,
  }),
  listGroupRoutes: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/routes",
    summary: "A group's routes, in stored order",
    access: READ,
    response: s.routesSchema,
    versioned: true,
  }),
  replaceGroupRoutes: defineEndpoint({
    method: "PUT",
    path: "/admin/api/groups/{id}/routes",
    summary: "Replace a group's routes; routes identical to the stored ones skip full validation",
    access: EDIT,
    body: s.routesBodySchema,
    bodyCheckedByEndpoint: true,
    response: s.okCountSchema,
    versioned: true,
    answersVersion: true,
  }),
  listFragments: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/fragments",
    summary: "A group's named filter fragments",
    access: READ,
    response: s.fragmentsSchema,
    versioned: true,
  }),
  replaceFragments: defineEndpoint({
    method: "PUT",
    path: "/admin/api/groups/{id}/fragments",
    summary: "Replace all of a group's fragments",
    access: EDIT,
    body: s.fragmentsBodySchema,
    response: s.fragmentsReplacedSchema,
    versioned: true,
    answersVersion: true,
  }),
  listGroupTargets: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/targets",
    summary: "The chat targets (Discord channels, Telegram chats) the group's routes may post " +
      "into, and the targets of its routes that are refused, with the reason",
    access: READ,
    response: s.allowedTargetsSchema,
    versioned: true,
  }),
  replaceGroupTargets: defineEndpoint({
    method: "PUT",
    path: "/admin/api/groups/{id}/targets",
    summary: "Replace the chat targets the group's routes may post into (a thread is allowed " +
      "through its channel, a topic through its chat); a target may be allowed for several groups",
    access: "super admin",
    body: s.allowedTargetsBodySchema,
    response: s.targetsReplacedSchema,
    versioned: true,
  }),
  renameGroup: defineEndpoint({
    method: "PUT",
    path: "/admin/api/groups/{id}/rename",
    summary: "Rename a group: routes, fragments, webhook secret, invites and members follow",
    access: OWN,
    body: s.renameBodySchema,
    response: s.renamedSchema,
    errors: {
      "409": "newId names an existing group, or the group changed while it was renamed",
    },
  }),
  listInvites: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/invites",
    summary: "A group's pending invites",
    access: OWN,
    response: s.invitesSchema,
  }),
  createInvite: defineEndpoint({
    method: "POST",
    path: "/admin/api/groups/{id}/invites",
    summary: "Create a single-use invite link (7 days) granting admin or viewer",
    access: OWN,
    body: s.inviteBodySchema,
    response: s.createdInviteSchema,
    status: 201,
  }),
  revokeInvite: defineEndpoint({
    method: "DELETE",
    path: "/admin/api/invites/{token}",
    summary: "Revoke a pending invite",
    access: "super admin, or an owner of the invite's group",
    response: s.okSchema,
  }),
  getWebhook: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/webhook",
    summary: "The group's ingress address and whether it is enabled",
    access: OWN,
    response: s.webhookInfoSchema,
  }),
  regenerateWebhook: defineEndpoint({
    method: "POST",
    path: "/admin/api/groups/{id}/webhook/regenerate",
    summary: "Generate or regenerate the group's webhook secret; the only time it is shown. " +
      "The replaced secret keeps working for `graceSeconds` (default 24 hours)",
    access: OWN,
    body: s.webhookRegenerateSchema,
    bodyOptional: true,
    response: s.webhookSecretSchema,
  }),
  revokePreviousWebhookSecret: defineEndpoint({
    method: "DELETE",
    path: "/admin/api/groups/{id}/webhook/previous",
    summary: "End the replaced webhook secret's grace period at once",
    access: OWN,
    response: s.okSchema,
    errors: { "404": "the group has no replaced secret in its grace period" },
  }),
  deleteWebhook: defineEndpoint({
    method: "DELETE",
    path: "/admin/api/groups/{id}/webhook",
    summary: "Disable the group's ingress (its secret is deleted)",
    access: OWN,
    response: s.okSchema,
  }),
  listGroupEvents: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/events",
    summary: "The group's recent events, newest first: those that fired no route included, " +
      "with how many routes fired",
    access: READ,
    query: s.eventsQuerySchema,
    response: s.groupEventPageSchema,
  }),
  getGroupEvent: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/events/{eventId}",
    summary: "One event of the group: its payload, each route of the group with whether it " +
      "fired and matches and why, and the event's send logs in the group",
    access: READ,
    response: s.groupEventDetailSchema,
    errors: {
      "404": "The group has no record of this event (unknown, past retention, or another group's)",
    },
  }),
  resendGroupEvent: defineEndpoint({
    method: "POST",
    path: "/admin/api/groups/{id}/events/{eventId}/resend",
    summary: "Accept one of the group's events again, as a new event of the group only, so the " +
      "current routes judge it and send their messages (audited)",
    access: EDIT,
    response: s.resentSchema,
    errors: {
      "404": "The group has no record of this event",
      "409": "The event's payload is past retention",
    },
  }),
  previewReplay: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/replays/preview",
    summary: "Count what a bulk replay of a filter over the group's send logs would select " +
      "and send (400 beyond 10,000 send logs)",
    access: READ,
    query: rs.replayPreviewQuerySchema,
    response: rs.replayPreviewSchema,
  }),
  startReplay: defineEndpoint({
    method: "POST",
    path: "/admin/api/groups/{id}/replays",
    summary: "Start a bulk replay of the group's send logs a filter selects: the same " +
      "messages, or their events through the current routes, through the lanes (audited)",
    access: EDIT,
    body: rs.replayStartSchema,
    response: rs.replaySchema,
    status: 202,
  }),
  listReplays: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/replays",
    summary: "The group's latest bulk replays and their progress, newest first",
    access: READ,
    response: rs.replaysSchema,
  }),
  getReplay: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/replays/{replayId}",
    summary: "One bulk replay and its progress",
    access: READ,
    response: rs.replaySchema,
  }),
  steerReplay: defineEndpoint({
    method: "POST",
    path: "/admin/api/groups/{id}/replays/{replayId}/state",
    summary: "Pause, resume or cancel a bulk replay (audited)",
    access: EDIT,
    body: rs.replayStateSchema,
    response: rs.replaySchema,
    errors: { "409": "The replay's state does not allow this (a finished replay)" },
  }),
  listLogs: defineEndpoint({
    method: "GET",
    path: "/admin/api/logs",
    summary: "Send logs of the caller's groups, newest first, with filters and cursor pages",
    access: SIGNED_IN,
    query: s.logsQuerySchema,
    response: s.sendLogPageSchema,
  }),
  getLog: defineEndpoint({
    method: "GET",
    path: "/admin/api/logs/{id}",
    summary: "One send log",
    access: READ,
    response: s.sendLogSchema,
  }),
  getDelivery: defineEndpoint({
    method: "GET",
    path: "/admin/api/delivery/{deliveryId}",
    summary: "All send logs of one delivery, in the caller's groups",
    access: READ,
    response: s.deliverySchema,
  }),
  redeliver: defineEndpoint({
    method: "POST",
    path: "/admin/api/delivery/{deliveryId}/redeliver",
    summary: "Send a delivery's failed and dead units again",
    access: "super admin, or an owner or admin of every group the delivery reached",
    response: s.redeliveredSchema,
  }),
  listAudit: defineEndpoint({
    method: "GET",
    path: "/admin/api/audit",
    summary: "Audit entries of the caller's groups, newest first, with filters and cursor pages",
    access: SIGNED_IN,
    query: s.auditQuerySchema,
    response: s.auditPageSchema,
  }),
  metrics: defineEndpoint({
    method: "GET",
    path: "/admin/api/metrics",
    summary: "Delivery statistics: totals, failure rate, by platform, event, status and day, " +
      "recent failures",
    access: SIGNED_IN,
    query: s.metricsQuerySchema,
    response: s.metricsSchema,
  }),
  testMatch: defineEndpoint({
    method: "POST",
    path: "/admin/api/test-match",
    summary: "Evaluate a filter tree or filter list against an event; stores nothing",
    access: SIGNED_IN,
    body: s.testMatchBodySchema,
    response: s.testMatchSchema,
    errors: { "422": "The filters could not be evaluated within the per-event budget" },
  }),
  preview: defineEndpoint({
    method: "POST",
    path: "/admin/api/preview",
    summary: "Render an event as the Discord and Telegram messages delivery would send; " +
      "stores and sends nothing",
    access: SIGNED_IN,
    body: s.previewBodySchema,
    response: s.previewSchema,
  }),
  exportConfig: defineEndpoint({
    method: "GET",
    path: "/admin/api/config/export",
    summary: "The configuration (groups, routes, fragments, allowed targets) as a version 1 " +
      "document, for backups and for moving to another instance; webhook secrets only with " +
      "secrets=true",
    access: "super admin",
    query: exportQuerySchema,
    response: configDocumentSchema,
  }),
  importConfig: defineEndpoint({
    method: "POST",
    path: "/admin/api/config/import",
    summary: "Import a configuration document: validated as a whole first (400 and nothing " +
      "written when any part is refused), then each group in one atomic write with its audit " +
      "entry; groups not in the document stay as they are; dryRun=true only answers the plan",
    access: "super admin",
    query: importQuerySchema,
    body: configDocumentSchema,
    bodyCheckedByEndpoint: true,
    response: importAnswerSchema,
    errors: { "409": "A group changed during the import (groups before it were imported)" },
  }),
  sendTestEvent: defineEndpoint({
    method: "POST",
    path: "/admin/api/groups/{id}/test-event",
    summary: "Send a bundled sample or a recent event of the group through the group's own " +
      "ingress, signed by the server with the group's secret (never answered); answers the " +
      "ingress's status and the delivery id to find the event by. Audited (webhook.test)",
    access: EDIT,
    body: s.testEventBodySchema,
    response: s.testEventSchema,
    errors: {
      "404": "Unknown group, or the recent event is not the group's (or past retention)",
      "409": "The group's webhook has no secret yet",
      "429": "The group sent its test events for this minute; Retry-After says when to retry",
    },
  }),
  listGroupRejections: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/rejections",
    summary: "Webhook requests the group's ingress refused, newest first, with the reason in " +
      "words and what to change; sampled and bounded, never a body",
    access: EDIT,
    response: s.rejectionListSchema,
  }),
  listGroupProblems: defineEndpoint({
    method: "GET",
    path: "/admin/api/groups/{id}/problems",
    summary: "What keeps the group's routes from reaching the chat: a platform this instance " +
      "has no bot token for, a target the bot cannot post to, a route that has not fired for " +
      "many events; each with what to change",
    access: READ,
    response: s.routeProblemListSchema,
  }),
  resumeTarget: defineEndpoint({
    method: "POST",
    path: "/admin/api/groups/{id}/target-health/resume",
    summary: "Resume a paused target of the group: what it held is sent, in order, through its " +
      "lane, and the target is healthy again. Audited (target.resume)",
    access: EDIT,
    body: s.targetHealthBodySchema,
    response: s.targetResumedSchema,
    errors: { "404": "Unknown group, or the target was never paused" },
  }),
  discardTarget: defineEndpoint({
    method: "POST",
    path: "/admin/api/groups/{id}/target-health/discard",
    summary: "Discard what a paused target of the group holds: each held message becomes " +
      "failed, its log saying who discarded it; the target stays paused until resumed. " +
      "Audited (target.discard)",
    access: EDIT,
    body: s.targetHealthBodySchema,
    response: s.targetDiscardedSchema,
    errors: { "404": "Unknown group, or the target was never paused" },
  }),
  listRejections: defineEndpoint({
    method: "GET",
    path: "/admin/api/rejections",
    summary: "Webhook requests refused at the instance-wide ingress or sent to an address " +
      "naming no group, newest first; sampled and bounded, never a body",
    access: "super admin",
    response: s.rejectionListSchema,
  }),
  ...REMINDER_ENDPOINTS,
};
