// What a sent notification reports (common-utils' NotificationEvent): the event it was about and,
// per channel, how delivery went. Field order is OpenSearch's.

/** The message handed to channels: a title and a plain-text body. */
export interface MessageContent {
  readonly title: string;
  readonly text: string;
}

export interface EventSource {
  readonly title: string;
  readonly reference_id: string;
  readonly severity: 'info';
  readonly tags: readonly string[];
}

/** `status_code` is an HTTP status as text, or a status name (`LOCKED`, `NOT_FOUND`) where OpenSearch uses one. */
export interface DeliveryStatus {
  readonly status_code: string;
  readonly status_text: string;
}

export interface EmailRecipientStatus {
  readonly recipient: string;
  readonly delivery_status: DeliveryStatus;
}

export interface EventStatus {
  readonly config_id: string;
  readonly config_type: string;
  readonly config_name: string;
  readonly email_recipient_status: readonly EmailRecipientStatus[];
  readonly delivery_status: DeliveryStatus;
}

export interface NotificationEvent {
  readonly event_source: EventSource;
  readonly status_list: readonly EventStatus[];
}

export function eventSource(title: string, referenceId: string): EventSource {
  return { title, reference_id: referenceId, severity: 'info', tags: [] };
}

export function deliveryStatus(code: string | number, text: string): DeliveryStatus {
  return { status_code: String(code), status_text: text };
}

/** The statuses' common code, or `207` when they differ (as the plugin sums them up). */
export function overallStatus(statuses: readonly DeliveryStatus[]): string {
  const first = statuses[0]?.status_code ?? '200';
  return statuses.every((s) => s.status_code === first) ? first : '207';
}
