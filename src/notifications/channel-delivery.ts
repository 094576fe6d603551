// Sending one message to one channel, as the notifications plugin's SendMessageActionHelper
// does: what each kind of channel receives, and the status each outcome is reported with.
//
// Chat channels get JSON with the title and the text (`{"text": …}`, Chime `{"Content": …}`); a
// custom webhook gets the text alone, with its configured method and headers; an email channel
// sends one SMTP message per recipient (its own list and its groups'). SNS topics and SES
// accounts need AWS, which Quarry does not call: their deliveries fail with a status that says so.
import { encodeJsonString } from '../http/raw-json';
import type { ConfigStore, StoredConfig } from './config-store';
import { deliverHttp } from './http-destination';
import { buildMimeMessage } from './mime-message';
import type { ConfigData } from './notification-config';
import { deliveryStatus, overallStatus, type DeliveryStatus, type EmailRecipientStatus, type EventStatus, type MessageContent } from './notification-event';
import { sendMail, SmtpError, type SmtpTimeouts } from './smtp-client';

export interface DeliveryOptions {
  readonly store: ConfigStore;
  /** Most characters of an HTTP answer kept as its status text. */
  readonly maxResponseChars: number;
  readonly smtp: SmtpTimeouts;
}

/** OpenSearch's `opensearch.notifications.core.email.size_limit` default. */
const EMAIL_SIZE_LIMIT = 10_000_000;

export const SNS_UNAVAILABLE = 'Failed to send SNS message: Quarry does not deliver to AWS SNS (this node makes no AWS calls)';
export const SES_UNAVAILABLE = 'Failed to send email through SES: Quarry does not deliver to AWS SES (this node makes no AWS calls)';

function withTitle(m: MessageContent): string {
  return `${m.title}\n\n${m.text}`;
}

function chat(url: string, key: 'text' | 'Content', m: MessageContent, o: DeliveryOptions): Promise<DeliveryStatus> {
  return deliverHttp({ url, method: 'POST', headers: {}, body: `{${encodeJsonString(key)}:${encodeJsonString(withTitle(m))}}`, maxResponseChars: o.maxResponseChars });
}

async function smtpStatus(account: Extract<ConfigData, { shape: 'smtp_account' }>, to: string, m: MessageContent, o: DeliveryOptions): Promise<DeliveryStatus> {
  const message = buildMimeMessage({ from: account.from_address, to, subject: m.title, text: m.text });
  if (Buffer.byteLength(message, 'utf8') > EMAIL_SIZE_LIMIT) return deliveryStatus(413, `Email size larger than ${EMAIL_SIZE_LIMIT}`);
  try {
    await sendMail({ host: account.host, port: account.port, method: account.method, from: account.from_address, to, message }, o.smtp);
    return deliveryStatus(200, 'Success');
  } catch (err) {
    const text = `sendEmail Error, status:${(err as Error).message}`;
    if (err instanceof SmtpError && err.kind === 'connect') return deliveryStatus(503, text);
    if (err instanceof SmtpError && err.kind === 'rejected') return deliveryStatus(502, text);
    return deliveryStatus(424, text);
  }
}

async function email(data: Extract<ConfigData, { shape: 'email' }>, base: EventStatus, m: MessageContent, o: DeliveryOptions): Promise<EventStatus> {
  const account = o.store.get(data.email_account_id);
  if (account === undefined) return { ...base, email_recipient_status: [], delivery_status: deliveryStatus(404, `Sender ${data.email_account_id} not found`) };
  const missingGroups: string[] = [];
  const addresses = data.recipient_list.map((r) => r.recipient);
  for (const groupId of data.email_group_id_list) {
    const group = o.store.get(groupId);
    if (group === undefined) missingGroups.push(groupId);
    else if (group.config.data?.shape === 'email_group') addresses.push(...group.config.data.recipient_list.map((r) => r.recipient));
  }
  const accountData = account.config.data;
  const statuses: EmailRecipientStatus[] = await Promise.all(
    [...new Set(addresses)].map(async (recipient): Promise<EmailRecipientStatus> => {
      if (accountData?.shape === 'smtp_account') return { recipient, delivery_status: await smtpStatus(accountData, recipient, m, o) };
      if (accountData?.shape === 'ses_account') return { recipient, delivery_status: deliveryStatus(424, SES_UNAVAILABLE) };
      return { recipient, delivery_status: deliveryStatus('NOT_ACCEPTABLE', 'email account type not enabled') };
    }),
  );
  for (const id of missingGroups) statuses.push({ recipient: 'unknown-recipient@example.com', delivery_status: deliveryStatus(404, `Recipient ${id} not found`) });
  // OpenSearch fails outright on an email channel left with nobody to write to.
  if (statuses.length === 0) return { ...base, email_recipient_status: [], delivery_status: deliveryStatus(400, 'No recipient to send the email to') };
  const overall = overallStatus(statuses.map((s) => s.delivery_status));
  const first = statuses[0] as EmailRecipientStatus;
  const summary = overall === first.delivery_status.status_code ? first.delivery_status : deliveryStatus(207, 'Errors');
  return { ...base, email_recipient_status: statuses, delivery_status: summary };
}

async function deliver(doc: StoredConfig, base: EventStatus, m: MessageContent, o: DeliveryOptions): Promise<EventStatus> {
  const data = doc.config.data;
  const sent = (status: DeliveryStatus): EventStatus => ({ ...base, delivery_status: status });
  // Stored configs were parsed with their type's model, so type and data agree.
  if (data?.shape === 'slack' || data?.shape === 'microsoft_teams') return sent(await chat(data.url, 'text', m, o));
  if (data?.shape === 'chime') return sent(await chat(data.url, 'Content', m, o));
  if (data?.shape === 'webhook') {
    const headers = Object.keys(data.header_params).length === 0 ? { 'Content-type': 'application/json' } : data.header_params;
    return sent(await deliverHttp({ url: data.url, method: data.method, headers, body: m.text, maxResponseChars: o.maxResponseChars }));
  }
  if (data?.shape === 'sns') return sent(deliveryStatus(424, SNS_UNAVAILABLE));
  if (data?.shape === 'email') return email(data, base, m, o);
  // Accounts and groups are parts of email channels, not channels.
  return sent(deliveryStatus('NOT_FOUND', 'Channel not found'));
}

/** The channel `id`'s delivery of `m`, never throwing: any failure is its status. */
export async function deliverToChannel(id: string, m: MessageContent, o: DeliveryOptions): Promise<EventStatus> {
  const doc = o.store.get(id);
  if (doc === undefined) {
    return { config_id: id, config_type: 'none', config_name: 'invalid-config', email_recipient_status: [], delivery_status: deliveryStatus(404, `Channel ${id} not found`) };
  }
  const pending = deliveryStatus('Scheduled', 'Pending execution');
  const base: EventStatus = {
    config_id: id,
    config_type: doc.config.config_type,
    config_name: doc.config.name,
    // What the plugin reports for an email channel it did not get to send.
    email_recipient_status: doc.config.config_type === 'email' ? [{ recipient: 'placeholder@example.com', delivery_status: pending }] : [],
    delivery_status: pending,
  };
  if (!doc.config.is_enabled) return { ...base, delivery_status: deliveryStatus('LOCKED', 'The channel is muted') };
  try {
    return await deliver(doc, base, m, o);
  } catch {
    return { ...base, delivery_status: deliveryStatus(424, 'Failed to send notification') };
  }
}
