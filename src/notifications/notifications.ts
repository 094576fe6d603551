// The node's notifications: its channel configs and sending a message to channels. Actions
// under actions/notifications/ and the long-running-operation notifier (src/lron) use it.
import type { NodeConfig } from '../config';
import { OpenSearchError } from '../http/errors';
import { deliverToChannel, type DeliveryOptions } from './channel-delivery';
import { ConfigStore } from './config-store';
import { CONNECT_TIMEOUT_MS, SOCKET_TIMEOUT_MS } from './http-destination';
import { overallStatus, type EventSource, type MessageContent, type NotificationEvent } from './notification-event';

/** Status names some deliveries report instead of a number, as HTTP statuses. */
const NAMED_STATUSES: Readonly<Record<string, number>> = { LOCKED: 423, NOT_FOUND: 404, NOT_ACCEPTABLE: 406 };

export class Notifications {
  private readonly delivery: DeliveryOptions;

  constructor(
    readonly store: ConfigStore,
    maxResponseChars: number,
  ) {
    this.delivery = { store, maxResponseChars, smtp: { connectMs: CONNECT_TIMEOUT_MS, replyMs: SOCKET_TIMEOUT_MS } };
  }

  static open(config: NodeConfig): Notifications {
    // OpenSearch keeps at most half of http.max_content_length of an answer (Java chars are 2 bytes).
    return new Notifications(ConfigStore.open(config.path.data), Math.floor(config.http.maxContentLength / 2));
  }

  /** Sends `message` to each distinct channel at once; every outcome is in the event. */
  async send(channelIds: readonly string[], source: EventSource, message: MessageContent): Promise<NotificationEvent> {
    const statuses = await Promise.all([...new Set(channelIds)].map((id) => deliverToChannel(id, message, this.delivery)));
    return { event_source: source, status_list: statuses };
  }
}

/** Whether every channel took the message. */
export function delivered(event: NotificationEvent): boolean {
  return overallStatus(event.status_list.map((s) => s.delivery_status)) === '200';
}

/**
 * The failure the plugin raises when a delivery is not a 200: its reason is the statuses as
 * JSON, its status the common one (207 when they differ). OpenSearch cannot turn a named status
 * (`LOCKED`) into a number and answers 400 `For input string`; Quarry maps those names.
 */
export function deliveryFailure(event: NotificationEvent): OpenSearchError {
  const code = overallStatus(event.status_list.map((s) => s.delivery_status));
  const status = NAMED_STATUSES[code] ?? Number(code);
  const list = `[${event.status_list.map((s) => JSON.stringify(s)).join(',')}]`;
  return new OpenSearchError(Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500, 'status_exception', `{"event_status_list": ${list}}`);
}
