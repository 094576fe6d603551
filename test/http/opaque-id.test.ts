// X-Opaque-Id comes back on every answer, failures included, as OpenSearch sends it (checked
// against 2.19: a missing index, an unknown parameter, a path no handler serves).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';

let app: App;
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-opaque-'));
  app = buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`], env: {}, configDir: dataDir }));
});
afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('X-Opaque-Id', () => {
  it('is echoed on successes and failures alike', async () => {
    for (const [url, status] of [
      ['/', 200],
      ['/nosuchindex/_search', 404],
      ['/_search?bogus=1', 400],
      ['/_nosuchroute', 400],
    ] as const) {
      const res = await app.fastify.inject({ method: 'GET', url, headers: { 'x-opaque-id': 'trace-7' } });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['x-opaque-id'], url).toBe('trace-7');
    }
  });
});
