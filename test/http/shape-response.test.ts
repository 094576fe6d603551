import { describe, expect, it } from 'vitest';
import { shapeResponse } from '../../src/http/shape-response';
import { shapeResponse as fromPretty } from '../../src/http/pretty';

const body = Buffer.from('{"took":3,"big":9007199254740993,"f":1.00000000000000000001,"e":-0.0,"d":1.0e10,"items":[{"_id":"1"}]}');

describe('shapeResponse', () => {
  it('returns the very same Buffer when neither pretty nor filter_path is asked', () => {
    expect(shapeResponse(body, { pretty: false, filterPath: undefined })).toBe(body);
    expect(fromPretty(body, { pretty: false, filterPath: undefined })).toBe(body);
  });

  it('returns the same Buffer for an empty filter_path', () => {
    expect(shapeResponse(body, { pretty: false, filterPath: '' })).toBe(body);
  });

  it('keeps numbers exactly as the engine wrote them', () => {
    expect(shapeResponse(body, { pretty: false, filterPath: 'big,f,e,d' }).toString()).toBe(
      '{"big":9007199254740993,"f":1.00000000000000000001,"e":-0.0,"d":1.0e10}',
    );
  });

  it('filters and pretty-prints together, ending with a line feed', () => {
    expect(shapeResponse(body, { pretty: true, filterPath: 'items._id' }).toString()).toBe(
      '{\n  "items" : [\n    {\n      "_id" : "1"\n    }\n  ]\n}\n',
    );
  });

  it('leaves a body that is not JSON alone', () => {
    const text = Buffer.from('green open idx\n');
    expect(shapeResponse(text, { pretty: true, filterPath: undefined })).toBe(text);
  });
});
