// Process entry: read settings, open the node, listen, and shut down gracefully on SIGINT /
// SIGTERM (stop accepting, finish in-flight requests, commit every shard).
import { loadConfig } from './config';
import { buildApp } from './app';
import { prepareSecurity } from './security/security';

async function main(): Promise<void> {
  const started = process.hrtime.bigint();
  const config = loadConfig({ argv: process.argv.slice(2), env: process.env, configDir: process.env.QUARRY_PATH_CONF });
  const security = await prepareSecurity(config, process.env);
  const app = buildApp(config, security);
  for (const notice of security?.notices ?? []) process.stdout.write(`[quarry] ${notice}\n`);
  const address = await app.fastify.listen({ host: config.network.host, port: config.http.port });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(`[quarry] node [${config.node.name}] listening on ${address} (started in ${ms.toFixed(0)} ms)\n`);

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    process.stdout.write(`[quarry] ${signal}: shutting down\n`);
    app
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        process.stderr.write(`[quarry] shutdown failed: ${String(err)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  const e = err as { reason?: string; message?: string };
  process.stderr.write(`[quarry] failed to start: ${e.reason ?? e.message ?? String(err)}\n`);
  process.exit(1);
});
