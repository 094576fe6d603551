// The answer of a TS-side action: a value serialized as JSON with its status. `javaFloats` prints
// the float fields OpenSearch writes from Java floats with their `.0` (src/http/java-float.ts).
import type { EngineResponse } from '../engine';
import { withJavaFloats } from './java-float';

export function jsonResponse(value: unknown, status = 200, javaFloats = false): EngineResponse {
  const text = JSON.stringify(value);
  return { status, body: Buffer.from(javaFloats ? withJavaFloats(text) : text) };
}
