import { describe, expect, it } from 'vitest';
import { textWords } from '../../src/system/text-words';

describe('text field words', () => {
  it('cuts as the standard tokenizer does for names, addresses, URLs and ARNs', () => {
    expect(textWords('Nightly merge, of LOGS')).toEqual(['nightly', 'merge', 'of', 'logs']);
    expect(textWords('team@example.com')).toEqual(['team', 'example.com']);
    expect(textWords('https://hooks.slack.com/services/T0')).toEqual(['https', 'hooks.slack.com', 'services', 't0']);
    expect(textWords('arn:aws:sns:us-east-1:123456789012:alerts')).toEqual(['arn:aws:sns:us', 'east', '1', '123456789012', 'alerts']);
    expect(textWords("1,000.5 it's snake_case")).toEqual(['1,000.5', "it's", 'snake_case']);
  });
});
