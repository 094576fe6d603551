// The kinds of notification config (OpenSearch's `ConfigType` tags) and what each one is.

export const CONFIG_TYPES = [
  'slack',
  'chime',
  'microsoft_teams',
  'mattermost',
  'webhook',
  'email',
  'sns',
  'ses_account',
  'smtp_account',
  'email_group',
] as const;

/** A known kind, or `none`: OpenSearch reads an unknown `config_type` as NONE. */
export type ConfigType = (typeof CONFIG_TYPES)[number] | 'none';

export function configTypeOf(tag: string): ConfigType {
  return (CONFIG_TYPES as readonly string[]).includes(tag) ? (tag as ConfigType) : 'none';
}

/**
 * The data model a kind's object is parsed with. Mattermost reuses Slack's (as it does from
 * OpenSearch 3.5, which added it), so either tag's object satisfies either type.
 */
export type DataShape = 'slack' | 'chime' | 'microsoft_teams' | 'webhook' | 'email' | 'sns' | 'ses_account' | 'smtp_account' | 'email_group';

export function shapeOf(type: Exclude<ConfigType, 'none'>): DataShape {
  return type === 'mattermost' ? 'slack' : type;
}

/** Kinds a message can be sent to (the channels list): the rest are parts of an email channel. */
export const CHANNEL_TYPES: readonly ConfigType[] = ['slack', 'chime', 'microsoft_teams', 'mattermost', 'webhook', 'email', 'sns'];

/** `GET /features`' `allowed_config_type_list`: OpenSearch's default list (every kind), with Mattermost. */
export const ALLOWED_CONFIG_TYPES: readonly string[] = CONFIG_TYPES;
