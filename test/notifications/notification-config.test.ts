import { describe, expect, it } from 'vitest';
import { OpenSearchError } from '../../src/http/errors';
import { readBody } from '../../src/http/xcontent';
import { notificationConfigJson, parseNotificationConfig } from '../../src/notifications/notification-config';

function parse(config: unknown): ReturnType<typeof parseNotificationConfig> {
  return parseNotificationConfig(readBody(Buffer.from(JSON.stringify(config))));
}

function refusal(config: unknown): string {
  try {
    parse(config);
  } catch (e) {
    if (e instanceof OpenSearchError) return `${e.status} ${e.type} ${e.reason}`;
    throw e;
  }
  throw new Error('accepted');
}

describe('notification config model', () => {
  it('reads each kind and writes it back in OpenSearch field order', () => {
    const cases: Array<[unknown, unknown]> = [
      [{ name: 'S', config_type: 'slack', slack: { url: 'https://hooks.slack.com/x', extra: 1 } }, { name: 'S', description: '', config_type: 'slack', is_enabled: true, slack: { url: 'https://hooks.slack.com/x' } }],
      [{ config_type: 'mattermost', name: 'M', mattermost: { url: 'http://mm.example.com/hooks/1' } }, { name: 'M', description: '', config_type: 'mattermost', is_enabled: true, mattermost: { url: 'http://mm.example.com/hooks/1' } }],
      [
        { name: 'W', description: 'd', config_type: 'webhook', is_enabled: false, webhook: { url: 'http://h.example.com', method: 'PUT', header_params: { A: 'b' } } },
        { name: 'W', description: 'd', config_type: 'webhook', is_enabled: false, webhook: { url: 'http://h.example.com', header_params: { A: 'b' }, method: 'PUT' } },
      ],
      [
        { name: 'A', config_type: 'smtp_account', smtp_account: { from_address: 'a@b.co', method: 'start_tls', port: '587', host: 'smtp.example.com' } },
        { name: 'A', description: '', config_type: 'smtp_account', is_enabled: true, smtp_account: { host: 'smtp.example.com', port: 587, method: 'start_tls', from_address: 'a@b.co' } },
      ],
      [
        { name: 'E', config_type: 'email', email: { email_account_id: 'acc', recipient_list: [{ recipient: 'x@y.org' }] } },
        { name: 'E', description: '', config_type: 'email', is_enabled: true, email: { email_account_id: 'acc', recipient_list: [{ recipient: 'x@y.org' }], email_group_id_list: [] } },
      ],
      [
        { name: 'T', config_type: 'sns', sns: { topic_arn: 'arn:aws:sns:us-east-1:123456789012:t' } },
        { name: 'T', description: '', config_type: 'sns', is_enabled: true, sns: { topic_arn: 'arn:aws:sns:us-east-1:123456789012:t' } },
      ],
      [
        { name: 'R', config_type: 'ses_account', ses_account: { region: 'us-east-1', role_arn: 'arn:aws:iam::123456789012:role/x', from_address: 'a@b.co' } },
        { name: 'R', description: '', config_type: 'ses_account', is_enabled: true, ses_account: { region: 'us-east-1', role_arn: 'arn:aws:iam::123456789012:role/x', from_address: 'a@b.co' } },
      ],
    ];
    for (const [input, output] of cases) expect(notificationConfigJson(parse(input))).toEqual(output);
  });

  it('refuses what OpenSearch refuses, with its words', () => {
    expect(refusal({ config_type: 'slack', slack: { url: 'https://x.example.com' } })).toBe('400 illegal_argument_exception name field absent');
    expect(refusal({ name: 'n', slack: { url: 'https://x.example.com' } })).toBe('400 illegal_argument_exception config_type field absent');
    expect(refusal({ name: '', config_type: 'slack', slack: { url: 'https://x.example.com' } })).toBe('400 illegal_argument_exception name is null or empty');
    expect(refusal({ name: 'n', config_type: 'slack', chime: { url: 'https://x.example.com' } })).toBe("400 illegal_argument_exception ConfigType: slack and data doesn't match");
    expect(refusal({ name: 'n', config_type: 'slack' })).toBe("400 illegal_argument_exception ConfigType: slack and data doesn't match");
    expect(refusal({ name: 'n', config_type: 'slack', slack: {} })).toBe('400 illegal_argument_exception url field absent');
    expect(refusal({ name: 'n', config_type: 'slack', slack: { url: '' } })).toBe('400 illegal_argument_exception URL is null or empty');
    expect(refusal({ name: 'n', config_type: 'chime', chime: { url: 'ftp://x.example.com' } })).toBe('400 illegal_argument_exception Invalid URL or unsupported');
    expect(refusal({ name: 'n', config_type: 'webhook', webhook: { url: 'not a url' } })).toBe('400 illegal_argument_exception Invalid URL or unsupported');
    expect(refusal({ name: 'n', config_type: 'webhook', webhook: { url: 'http://x.example.com', method: 'GET' } })).toBe(
      '400 illegal_argument_exception Invalid method supplied. Only POST, PUT and PATCH are allowed',
    );
    expect(refusal({ name: 'n', config_type: 'smtp_account', smtp_account: { host: 'h', port: 25, method: 'none' } })).toBe('400 illegal_argument_exception from_address field absent');
    expect(refusal({ name: 'n', config_type: 'smtp_account', smtp_account: { host: 'h', port: 0, method: 'none', from_address: 'a@b.co' } })).toBe(
      '400 illegal_argument_exception port should be positive value',
    );
    expect(refusal({ name: 'n', config_type: 'smtp_account', smtp_account: { host: 'h', port: 25, method: 'tls', from_address: 'a@b.co' } })).toBe(
      '400 illegal_argument_exception Invalid method supplied. Only none, ssl and start_tls are allowed',
    );
    expect(refusal({ name: 'n', config_type: 'smtp_account', smtp_account: { host: 'h', port: 25, method: 'ssl', from_address: 'a@localhost' } })).toBe(
      '400 illegal_argument_exception Invalid email address',
    );
    expect(refusal({ name: 'n', config_type: 'email_group', email_group: { recipient_list: ['a@b.co'] } })).toBe(
      '400 parsing_exception Failed to parse object: expecting token of type [START_OBJECT] but found [VALUE_STRING]',
    );
    expect(refusal({ name: 'n', config_type: 'email_group', email_group: {} })).toBe('400 illegal_argument_exception recipient_list field absent');
    expect(refusal({ name: 'n', config_type: 'email', email: { recipient_list: [] } })).toBe('400 illegal_argument_exception email_account_id field absent');
    expect(refusal({ name: 'n', config_type: 'sns', sns: { topic_arn: 'arn:aws:sns:us-east-1:1:t' } })).toBe('400 illegal_argument_exception Invalid AWS SNS topic ARN: arn:aws:sns:us-east-1:1:t');
    expect(refusal({ name: 'n', config_type: 'ses_account', ses_account: { region: 'r', from_address: 'a@b.co', role_arn: 'role' } })).toBe(
      '400 illegal_argument_exception Invalid AWS role ARN: role ',
    );
    expect(refusal({ name: 'n', config_type: 'slack', is_enabled: 'maybe', slack: { url: 'https://x.example.com' } })).toBe(
      '400 illegal_argument_exception Failed to parse value [maybe] as only [true] or [false] are allowed.',
    );
  });

  it('reads an unknown config_type as none (create and update refuse it)', () => {
    expect(parse({ name: 'n', config_type: 'pager' }).config_type).toBe('none');
  });
});
