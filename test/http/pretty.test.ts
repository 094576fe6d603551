import { describe, expect, it } from 'vitest';
import { stringifyPretty } from '../../src/http/pretty';
import { parseJson } from '../../src/http/raw-json';

function pretty(json: string): string {
  return stringifyPretty(parseJson(json));
}

describe('pretty', () => {
  it('prints like OpenSearch (Jackson DefaultPrettyPrinter, 2-space indenter)', () => {
    // Captured from OpenSearch 2.19.1 for the same document.
    expect(pretty('{"b":[],"c":{},"g":[1,{"h":[]},[4,{"h":5}]],"n":null,"t":true,"o":{"p":{"q":1}}}')).toBe(
      [
        '{',
        '  "b" : [ ],',
        '  "c" : { },',
        '  "g" : [',
        '    1,',
        '    {',
        '      "h" : [ ]',
        '    },',
        '    [',
        '      4,',
        '      {',
        '        "h" : 5',
        '      }',
        '    ]',
        '  ],',
        '  "n" : null,',
        '  "t" : true,',
        '  "o" : {',
        '    "p" : {',
        '      "q" : 1',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('prints empty documents and scalars on one line', () => {
    expect(pretty('{}')).toBe('{ }\n');
    expect(pretty('[]')).toBe('[ ]\n');
  });

  it('re-escapes strings as Jackson does: non-ASCII and / as-is, controls as \\uXXXX upper-case', () => {
    expect(pretty('{"f":"x\\u00e9\\u001f\\"/\\t\\/"}')).toBe('{\n  "f" : "xé\\u001F\\"/\\t/"\n}\n');
  });
});
