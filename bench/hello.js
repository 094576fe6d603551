'use strict';
// The peer for the `GET /` bench: a bare fastify hello-world, same fastify and Node as Quarry.
// `POST /sized/<bytes>` is the HTTP floor of a search: fastify parses the request's JSON body
// and answers a prebuilt JSON body of that many bytes (at least 10), as a search answers its
// hits.
const fastify = require('fastify')({ logger: false });
fastify.get('/', async () => ({ hello: 'world' }));
const answers = new Map();
fastify.post('/sized/:bytes', (request, reply) => {
  const n = Math.max(10, Number(request.params.bytes) || 10);
  let body = answers.get(n);
  if (body === undefined) {
    body = Buffer.from(`{"pad":"${'x'.repeat(n - 10)}"}`);
    answers.set(n, body);
  }
  reply.header('content-type', 'application/json; charset=UTF-8').send(body);
});
fastify.listen({ port: Number(process.argv[2] || 3000), host: '127.0.0.1' }).then((addr) => {
  process.stdout.write(`fastify hello listening on ${addr}\n`);
});
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => fastify.close().then(() => process.exit(0)));
