'use strict';
// node:http with keep-alive agents: a request helper that buffers the response body.
const http = require('node:http');

function agent(maxSockets) {
  return new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
}

function request(url, { method = 'GET', body, headers = {}, agent: a } = {}) {
  return new Promise((resolve, reject) => {
    const h = { ...headers };
    if (body) h['content-length'] = body.length;
    // OpenSearch reports a long task's resource usage in a response header that outgrows
    // node's default 16 KB limit (a 227k-doc reindex sends about 50 KB of it).
    const req = http.request(url, { method, headers: h, agent: a, maxHeaderSize: 1 << 20 }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function json(url, opts) {
  const r = await request(url, opts);
  return { status: r.status, body: r.body.length ? JSON.parse(r.body.toString('utf8')) : undefined };
}

module.exports = { agent, request, json };
