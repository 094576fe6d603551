// The checks the plugin's create and update run once a config has parsed, against the node's
// other configs (ConfigIndexingActions.validateConfig). They fail as `status_exception`s.
import { statusException } from '../http/error-table';
import type { ConfigStore } from './config-store';
import { kotlinList, typeNotAcceptable } from './errors';
import type { NotificationConfig } from './notification-config';

const TEAMS_WEBHOOK = /https:\/\/.*\.webhook\.office\.com/;

export function checkConfig(config: NotificationConfig, store: ConfigStore): void {
  const data = config.data;
  if (config.config_type === 'none') throw typeNotAcceptable();
  if (config.config_type === 'microsoft_teams' && data?.shape === 'microsoft_teams' && !TEAMS_WEBHOOK.test(data.url)) {
    throw statusException(400, 'Wrong Microsoft Teams url. Should contain "webhook.office.com"');
  }
  if (data?.shape !== 'email') return;
  const accountId = data.email_account_id;
  if (data.email_group_id_list.includes(accountId)) throw statusException(400, `Config IDs ${accountId} is in both emailAccountID and emailGroupIds`);
  const ids = [...new Set([accountId, ...data.email_group_id_list])];
  const missing = ids.filter((id) => store.get(id) === undefined);
  if (missing.length > 0) throw statusException(404, `Config IDs not found:${kotlinList(missing)}`);
  for (const id of ids) {
    const type = store.get(id)?.config.config_type;
    if (type === 'email_group') {
      if (id === accountId) throw statusException(406, `configId ${id} is not a valid email account ID`);
    } else if (type === 'smtp_account' || type === 'ses_account') {
      if (id !== accountId) throw statusException(406, `configId ${id} is not a valid email group ID`);
    } else throw statusException(406, `configId ${id} is not a valid email group ID or email account ID`);
  }
}
