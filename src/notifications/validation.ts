// The checks OpenSearch's notification models run on their fields (common-utils'
// ValidationHelpers), with their messages. Each failure is an IllegalArgumentException there,
// so a 400 `illegal_argument_exception` here.
import { illegalArgument } from '../http/error-table';

/** Characters an id may have: base64's and `_-` (ids are UUIDs or base64 strings). */
const VALID_ID_CHAR = /[A-Za-z0-9+/_-]/;

/** `validateId`: `Invalid characters in id : <the offending characters>`. */
export function validateId(id: string): void {
  const bad = [...id].filter((c) => !VALID_ID_CHAR.test(c)).join('');
  if (id.trim() === '' || bad.length > 0) throw illegalArgument(`Invalid characters in id : ${bad}`);
}

/**
 * `validateUrl`: http and https only. OpenSearch builds a `java.net.URL` first, which answers a
 * text without a scheme with a 500 MalformedURLException; Quarry refuses every URL it could not
 * post to with the same 400, `Invalid URL or unsupported`.
 */
export function validateUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    throw illegalArgument('Invalid URL or unsupported');
  }
}

// RFC 5322 addresses, as OpenSearch's pattern accepts them (case-insensitive, whole string): a
// dot-atom or quoted local part, and a domain with at least one dot or an IP literal.
const EMAIL =
  /^(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*|"(?:[\x01-\x08\x0b\x0c\x0e-\x1f\x21\x23-\x5b\x5d-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])*")@(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?|\[(?:(?:(2(5[0-5]|[0-4][0-9])|1[0-9][0-9]|[1-9]?[0-9]))\.){3}(?:(2(5[0-5]|[0-4][0-9])|1[0-9][0-9]|[1-9]?[0-9])|[a-z0-9-]*[a-z0-9]:(?:[\x01-\x08\x0b\x0c\x0e-\x1f\x21-\x5a\x53-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])+)\])$/i;

export function isValidEmail(address: string): boolean {
  return EMAIL.test(address);
}

export function validateEmail(address: string): void {
  if (!isValidEmail(address)) throw illegalArgument('Invalid email address');
}

const SNS_TOPIC_ARN = /^arn:aws(-[^:]+)?:sns:([a-zA-Z0-9-]+):([0-9]{12}):([a-zA-Z_0-9+=,.@\-_/]+)$/;
const IAM_ROLE_ARN = /^arn:aws(-[^:]+)?:iam::([0-9]{12}):([a-zA-Z_0-9+=,.@\-_/]+)$/;

export function validateSnsTopicArn(arn: string): void {
  if (!SNS_TOPIC_ARN.test(arn)) throw illegalArgument(`Invalid AWS SNS topic ARN: ${arn}`);
}

/** `validateIamRoleArn` (its message ends with a space in OpenSearch too). */
export function validateIamRoleArn(arn: string): void {
  if (!IAM_ROLE_ARN.test(arn)) throw illegalArgument(`Invalid AWS role ARN: ${arn} `);
}
