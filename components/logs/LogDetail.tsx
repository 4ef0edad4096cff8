import type { ComponentChildren } from "preact";
import type { SendLog } from "../../lib/store/delivery/send_logs.ts";
import { eventLabel, formatTime, isoTime, messageRef, targetLabel } from "./format.ts";
import { StatusBadge } from "./StatusBadge.tsx";
import { LINK, MUTED } from "./ui.ts";

function Row(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="grid grid-cols-[8rem_minmax(0,1fr)] gap-2 py-1.5">
      <dt class={`text-sm ${MUTED}`}>{props.label}</dt>
      <dd class="min-w-0 text-sm break-words">{props.children}</dd>
    </div>
  );
}

function Time(props: { at: number }) {
  return <time datetime={isoTime(props.at)}>{formatTime(props.at)} UTC</time>;
}

/** The address of the logs page showing every unit of a delivery. */
export function deliveryLogsHref(deliveryId: string): string {
  return `/admin/logs?delivery=${encodeURIComponent(deliveryId)}`;
}

/**
 * Everything a send log records about one unit: its outcome (status, attempts, the platform's
 * HTTP status and error, the message it posted) and what it delivered (event, repository,
 * delivery, group, route, target).
 */
export function LogDetail(props: { log: SendLog }) {
  const { log } = props;
  const message = messageRef(log);
  return (
    <dl class="divide-y divide-slate-100 dark:divide-slate-800" data-testid="log-detail">
      <Row label="Status">
        <StatusBadge status={log.status} />
      </Row>
      <Row label="Attempts">{log.attempts}</Row>
      <Row label="HTTP status">{log.httpStatus ?? <span class={MUTED}>none</span>}</Row>
      {log.error !== undefined && (
        <Row label="Platform error">
          <span class="font-mono text-xs whitespace-pre-wrap" data-testid="log-error">
            {log.error}
          </span>
        </Row>
      )}
      {log.templateError !== undefined && (
        <Row label="Template error">
          <span class="font-mono text-xs whitespace-pre-wrap" data-testid="log-template-error">
            {log.templateError} (the built-in message was sent)
          </span>
        </Row>
      )}
      {log.skipped !== undefined && (
        <Row label="Not sent">
          <span data-testid="log-skipped">{log.skipped}</span>
        </Row>
      )}
      {log.digestId !== undefined && (
        <Row label="Digest">
          <span data-testid="log-digest">
            gathered into digest <span class="font-mono">{log.digestId}</span>{" "}
            (its message is the digest's)
          </span>
        </Row>
      )}
      {log.nextAttemptAt !== undefined && log.status === "retrying" && (
        <Row label="Next attempt">
          <Time at={log.nextAttemptAt} />
        </Row>
      )}
      <Row label="Message">
        {message === null
          ? <span class={MUTED}>none posted</span>
          : message.href
          ? (
            <a class={LINK} href={message.href} target="_blank" rel="noopener noreferrer">
              Open message {message.id}
            </a>
          )
          : (
            <span>
              <span class="font-mono">{message.id}</span>
              {log.platform === "discord" && (
                <span class={`block text-xs ${MUTED}`}>
                  Discord gives no server id to build a link; search the channel for it.
                </span>
              )}
            </span>
          )}
      </Row>
      <Row label="Event">
        <span class="font-mono">{eventLabel(log)}</span> <span class={MUTED}>({log.provider})</span>
      </Row>
      <Row label="Repository">{log.repository ?? <span class={MUTED}>unknown</span>}</Row>
      <Row label="Delivery">
        <a class={`${LINK} font-mono`} href={deliveryLogsHref(log.deliveryId)}>
          {log.deliveryId}
        </a>
      </Row>
      <Row label="Group">{log.groupId}</Row>
      <Row label="Route">{log.routeId}</Row>
      <Row label="Target">{targetLabel(log.target)}</Row>
      <Row label="Created">
        <Time at={log.createdAt} />
      </Row>
      <Row label="Updated">
        <Time at={log.updatedAt} />
      </Row>
      <Row label="Log id">
        <span class="font-mono text-xs">{log.id}</span>
      </Row>
    </dl>
  );
}
