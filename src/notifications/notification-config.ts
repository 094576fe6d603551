// A notification config (a channel, or an email account or group a channel uses): its model,
// read from a request body with the checks and messages of OpenSearch's common-utils models,
// and written back in their field order.
import { illegalArgument } from '../http/error-table';
import { OpenSearchError } from '../http/errors';
import { booleanOf, expectArray, expectObject, intOf, textOf, textOrNull, type XNode, type XObject } from '../http/xcontent';
import { configTypeOf, shapeOf, type ConfigType, type DataShape } from './config-type';
import { validateEmail, validateIamRoleArn, validateSnsTopicArn, validateUrl } from './validation';

export type HttpMethod = 'POST' | 'PUT' | 'PATCH';
export type SmtpMethod = 'none' | 'ssl' | 'start_tls';

export interface Recipient {
  readonly recipient: string;
}

export type ConfigData =
  | { readonly shape: 'slack' | 'chime' | 'microsoft_teams'; readonly url: string }
  | { readonly shape: 'webhook'; readonly url: string; readonly header_params: Readonly<Record<string, string>>; readonly method: HttpMethod }
  | { readonly shape: 'sns'; readonly topic_arn: string; readonly role_arn: string | undefined }
  | { readonly shape: 'smtp_account'; readonly host: string; readonly port: number; readonly method: SmtpMethod; readonly from_address: string }
  | { readonly shape: 'ses_account'; readonly region: string; readonly role_arn: string | undefined; readonly from_address: string }
  | { readonly shape: 'email_group'; readonly recipient_list: readonly Recipient[] }
  | { readonly shape: 'email'; readonly email_account_id: string; readonly recipient_list: readonly Recipient[]; readonly email_group_id_list: readonly string[] };

export interface NotificationConfig {
  readonly name: string;
  readonly description: string;
  readonly config_type: ConfigType;
  readonly is_enabled: boolean;
  readonly data: ConfigData | undefined;
}

function absent(tag: string): OpenSearchError {
  return illegalArgument(`${tag} field absent`);
}

/** `parser.objectList { EmailRecipient.parse(it) }`. */
function recipients(node: XNode): Recipient[] {
  return expectArray(node).items.map((item) => {
    let recipient: string | undefined;
    for (const [key, value] of expectObject(item).entries) if (key === 'recipient') recipient = textOf(value);
    if (recipient === undefined) throw absent('recipient');
    validateEmail(recipient);
    return { recipient };
  });
}

/** `parser.mapStrings()`. */
function stringMap(node: XNode): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of expectObject(node).entries) out[key] = textOf(value);
  return out;
}

function urlData(shape: 'slack' | 'chime' | 'microsoft_teams', o: XObject): ConfigData {
  let url: string | undefined;
  for (const [key, value] of o.entries) if (key === 'url') url = textOf(value);
  if (url === undefined) throw absent('url');
  if (url === '') throw illegalArgument('URL is null or empty');
  validateUrl(url);
  return { shape, url };
}

function webhookData(o: XObject): ConfigData {
  let url: string | undefined;
  let headerParams: Record<string, string> = {};
  let method: HttpMethod = 'POST';
  for (const [key, value] of o.entries) {
    if (key === 'url') url = textOf(value);
    else if (key === 'header_params') headerParams = stringMap(value);
    else if (key === 'method') {
      const m = textOf(value);
      // OpenSearch quietly posts for any other method; a webhook that expects GET would never
      // hear from it, so Quarry says so instead.
      if (m !== 'POST' && m !== 'PUT' && m !== 'PATCH') throw illegalArgument('Invalid method supplied. Only POST, PUT and PATCH are allowed');
      method = m;
    }
  }
  if (url === undefined) throw absent('url');
  if (url === '') throw illegalArgument('URL is null or empty');
  validateUrl(url);
  return { shape: 'webhook', url, header_params: headerParams, method };
}

function snsData(o: XObject): ConfigData {
  let topicArn: string | null = null;
  let roleArn: string | null = null;
  for (const [key, value] of o.entries) {
    if (key === 'topic_arn') topicArn = textOrNull(value);
    else if (key === 'role_arn') roleArn = textOrNull(value);
  }
  if (topicArn === null) throw absent('topic_arn');
  validateSnsTopicArn(topicArn);
  if (roleArn !== null) validateIamRoleArn(roleArn);
  return { shape: 'sns', topic_arn: topicArn, role_arn: roleArn ?? undefined };
}

function smtpAccountData(o: XObject): ConfigData {
  let host: string | undefined;
  let port: number | undefined;
  let method: SmtpMethod | undefined;
  let from: string | undefined;
  for (const [key, value] of o.entries) {
    if (key === 'host') host = textOf(value);
    else if (key === 'port') port = intOf(value);
    else if (key === 'method') {
      const m = textOf(value);
      // OpenSearch reads an unknown method as `none` and would send in clear text; refused here.
      if (m !== 'none' && m !== 'ssl' && m !== 'start_tls') throw illegalArgument('Invalid method supplied. Only none, ssl and start_tls are allowed');
      method = m;
    } else if (key === 'from_address') from = textOf(value);
  }
  if (host === undefined) throw absent('host');
  if (port === undefined) throw absent('port');
  if (method === undefined) throw absent('method');
  if (from === undefined) throw absent('from_address');
  if (host === '') throw illegalArgument('host is null or empty');
  if (port <= 0) throw illegalArgument('port should be positive value');
  validateEmail(from);
  return { shape: 'smtp_account', host, port, method, from_address: from };
}

function sesAccountData(o: XObject): ConfigData {
  let region: string | undefined;
  let roleArn: string | null = null;
  let from: string | undefined;
  for (const [key, value] of o.entries) {
    if (key === 'region') region = textOf(value);
    else if (key === 'role_arn') roleArn = textOrNull(value);
    else if (key === 'from_address') from = textOf(value);
  }
  if (region === undefined) throw absent('region');
  if (from === undefined) throw absent('from_address');
  if (region === '') throw illegalArgument('awsRegion is null or empty');
  validateEmail(from);
  if (roleArn !== null) validateIamRoleArn(roleArn);
  return { shape: 'ses_account', region, role_arn: roleArn ?? undefined, from_address: from };
}

function emailGroupData(o: XObject): ConfigData {
  let list: Recipient[] | undefined;
  for (const [key, value] of o.entries) if (key === 'recipient_list') list = recipients(value);
  if (list === undefined) throw absent('recipient_list');
  return { shape: 'email_group', recipient_list: list };
}

function emailData(o: XObject): ConfigData {
  let accountId: string | undefined;
  let list: Recipient[] = [];
  let groups: string[] = [];
  for (const [key, value] of o.entries) {
    if (key === 'email_account_id') accountId = textOf(value);
    else if (key === 'recipient_list') list = recipients(value);
    else if (key === 'email_group_id_list') groups = expectArray(value).items.map(textOf);
  }
  if (accountId === undefined) throw absent('email_account_id');
  if (accountId === '') throw illegalArgument('emailAccountID is null or empty');
  return { shape: 'email', email_account_id: accountId, recipient_list: list, email_group_id_list: groups };
}

function parseData(shape: DataShape, node: XNode): ConfigData {
  const o = expectObject(node);
  switch (shape) {
    case 'slack':
    case 'chime':
    case 'microsoft_teams':
      return urlData(shape, o);
    case 'webhook':
      return webhookData(o);
    case 'sns':
      return snsData(o);
    case 'smtp_account':
      return smtpAccountData(o);
    case 'ses_account':
      return sesAccountData(o);
    case 'email_group':
      return emailGroupData(o);
    case 'email':
      return emailData(o);
  }
}

/**
 * `NotificationConfig.parse`: `name` and `config_type` required; the first object under a known
 * kind's tag is the config's data (other unknown fields are skipped, as OpenSearch logs and skips
 * them); the data must be the type's.
 */
export function parseNotificationConfig(node: XNode): NotificationConfig {
  let name: string | undefined;
  let description = '';
  let type: ConfigType | undefined;
  let enabled = true;
  let data: ConfigData | undefined;
  for (const [key, value] of expectObject(node).entries) {
    if (key === 'name') name = textOf(value);
    else if (key === 'description') description = textOf(value);
    else if (key === 'config_type') type = configTypeOf(textOf(value));
    else if (key === 'is_enabled') enabled = booleanOf(value);
    else {
      const tagType = configTypeOf(key);
      if (tagType !== 'none' && data === undefined) data = parseData(shapeOf(tagType), value);
    }
  }
  if (name === undefined) throw absent('name');
  if (type === undefined) throw absent('config_type');
  if (name === '') throw illegalArgument('name is null or empty');
  // NONE takes any data; create and update then refuse the type itself.
  if (type !== 'none' && (data === undefined || data.shape !== shapeOf(type))) throw illegalArgument(`ConfigType: ${type} and data doesn't match`);
  return { name, description, config_type: type, is_enabled: enabled, data };
}

function dataJson(data: ConfigData): Record<string, unknown> {
  switch (data.shape) {
    case 'slack':
    case 'chime':
    case 'microsoft_teams':
      return { url: data.url };
    case 'webhook':
      return { url: data.url, header_params: data.header_params, method: data.method };
    case 'sns':
      return data.role_arn === undefined ? { topic_arn: data.topic_arn } : { topic_arn: data.topic_arn, role_arn: data.role_arn };
    case 'smtp_account':
      return { host: data.host, port: data.port, method: data.method, from_address: data.from_address };
    case 'ses_account':
      return data.role_arn === undefined
        ? { region: data.region, from_address: data.from_address }
        : { region: data.region, role_arn: data.role_arn, from_address: data.from_address };
    case 'email_group':
      return { recipient_list: data.recipient_list };
    case 'email':
      return { email_account_id: data.email_account_id, recipient_list: data.recipient_list, email_group_id_list: data.email_group_id_list };
  }
}

/** The config as OpenSearch writes it: name, description, config_type, is_enabled, then its data. */
export function notificationConfigJson(c: NotificationConfig): Record<string, unknown> {
  const out: Record<string, unknown> = { name: c.name, description: c.description, config_type: c.config_type, is_enabled: c.is_enabled };
  if (c.data !== undefined && c.config_type !== 'none') out[c.config_type] = dataJson(c.data);
  return out;
}
