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
    const req = http.request(url, { method, headers: h, agent: a }, (res) => {
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
