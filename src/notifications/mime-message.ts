// The email a notification becomes: a single text/plain UTF-8 part whose Subject is the
// message's title (RFC 2047-encoded when it is not ASCII), with the headers a mail client
// expects (Date, From, To, Message-ID, MIME-Version). Lines end in CRLF; the body is sent as
// 7bit text when it is short-lined ASCII, else base64.
import { randomBytes } from 'node:crypto';
import os from 'node:os';

export interface MailParts {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly date?: Date;
}

const MAX_LINE = 998;

function isAscii(s: string): boolean {
  return /^[\x00-\x7f]*$/.test(s);
}

/** A header value as RFC 2047 encoded words when needed (each word under the 75-char limit). */
function encodeHeader(value: string): string {
  const oneLine = value.replace(/\r?\n/g, ' ');
  if (isAscii(oneLine)) return oneLine;
  const words: string[] = [];
  let chunk = '';
  for (const ch of oneLine) {
    // 45 bytes of UTF-8 base64-encode to 60 characters, which with `=?UTF-8?B??=` stays under 75.
    if (Buffer.byteLength(chunk + ch, 'utf8') > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk !== '') words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`).join('\r\n ');
}

/** RFC 5322's date: `Tue, 20 May 2025 10:00:00 +0000`. */
function rfc5322Date(d: Date): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

export function buildMimeMessage(m: MailParts): string {
  const text = m.text.replace(/\r?\n/g, '\r\n');
  const sevenBit = isAscii(text) && text.split('\r\n').every((l) => l.length <= MAX_LINE);
  const body = sevenBit ? text : (Buffer.from(text, 'utf8').toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
  const headers = [
    `Date: ${rfc5322Date(m.date ?? new Date())}`,
    `From: ${m.from}`,
    `To: ${m.to}`,
    `Message-ID: <${randomBytes(12).toString('hex')}@${os.hostname() || 'localhost'}>`,
    `Subject: ${encodeHeader(m.subject)}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=UTF-8',
    `Content-Transfer-Encoding: ${sevenBit ? '7bit' : 'base64'}`,
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}\r\n`;
}
