'use strict';
// The peer for the `GET /` bench: a bare fastify hello-world, same fastify and Node as Quarry.
const fastify = require('fastify')({ logger: false });
fastify.get('/', async () => ({ hello: 'world' }));
fastify.listen({ port: Number(process.argv[2] || 3000), host: '127.0.0.1' }).then((addr) => {
  process.stdout.write(`fastify hello listening on ${addr}\n`);
});
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => fastify.close().then(() => process.exit(0)));
