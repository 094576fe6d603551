'use strict';
// A small closed-loop keep-alive HTTP/1.1 load generator on raw sockets (no dependencies), in the
// spirit of autocannon: N connections, each with `pipelining` requests in flight, responses
// framed by Content-Length (or chunked). node:http's client costs more per request than the
// servers under test, so it would measure itself; raw sockets keep the generator cheap.
//
// Optional pacing (`rate`, total req/s over all connections) turns it into a paced probe for tail
// latency: each request has a scheduled time, and besides service time (send → response) it
// reports latency from the scheduled time, so a stalled server is not hidden (coordinated
// omission).
//
// A request body (`body`, a Buffer; CLI --body-file, sent as application/json) makes it a search
// load generator: every request is the same `method path` with the same body.
//
// CLI: node bench/lib/loadgen.js --url http://127.0.0.1:9200/ [--connections 50] [--pipelining 1]
//      [--warmup 2] [--duration 8] [--rate 0] [--method GET] [--body-file F] [--authorization V]
//      ; prints one JSON line.
const net = require('node:net');

function percentiles(values) {
  const a = Float64Array.from(values).sort();
  const at = (p) => (a.length ? a[Math.min(a.length - 1, Math.max(0, Math.ceil((p / 100) * a.length) - 1))] : 0);
  const mean = a.length ? a.reduce((s, v) => s + v, 0) / a.length : 0;
  return { n: a.length, mean, p50: at(50), p90: at(90), p99: at(99), p999: at(99.9), max: a.length ? a[a.length - 1] : 0 };
}

const CRLF2 = Buffer.from('\r\n\r\n');

// minRequests: keep measuring past `duration` until that many responses are counted (slow
// operations still get a few samples), but never beyond maxSeconds of measuring.
function run({ url, connections = 50, pipelining = 1, warmup = 2, duration = 8, rate = 0, method = 'GET', headers = {}, body, minRequests = 0, maxSeconds = 0 }) {
  const u = new URL(url);
  const bodyHeaders = body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {};
  const hdrs = Object.entries({ host: u.host, connection: 'keep-alive', ...bodyHeaders, ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const head = Buffer.from(`${method} ${u.pathname}${u.search} HTTP/1.1\r\n${hdrs}\r\n`);
  const request = body ? Buffer.concat([head, body]) : head;
  const now = () => Number(process.hrtime.bigint()) / 1e6; // ms

  return new Promise((resolve, reject) => {
    const t0 = now();
    const measureFrom = t0 + warmup * 1000;
    const end = measureFrom + duration * 1000;
    const hardEnd = measureFrom + Math.max(duration, maxSeconds) * 1000;
    const more = () => completed < minRequests;
    let measuring = false;
    let completed = 0;
    let total = 0; // every response, warm-up included (for CPU time per request)
    let non2xx = 0;
    let errors = 0;
    let bytes = 0;
    const service = [];
    const corrected = [];
    const sockets = [];
    let open = 0;
    let done = false;
    let measuredUntil = 0;
    const interval = rate > 0 ? (connections * 1000) / rate : 0; // ms between sends on one connection

    function finish() {
      if (done) return;
      done = true;
      for (const s of sockets) s.destroy();
      const secs = measuredUntil > measureFrom ? Math.max(duration, (measuredUntil - measureFrom) / 1000) : duration;
      resolve({
        url,
        connections,
        pipelining,
        rate,
        warmup_s: warmup,
        duration_s: secs,
        requests: completed,
        total_requests: total,
        rps: completed / secs,
        mb_per_s: bytes / 1e6 / secs,
        non2xx,
        errors,
        service_ms: percentiles(service),
        ...(rate > 0 ? { scheduled_ms: percentiles(corrected) } : {}),
      });
    }

    for (let c = 0; c < connections; c++) {
      const sock = net.connect({ host: u.hostname, port: Number(u.port || 80), noDelay: true });
      sockets.push(sock);
      const inflight = []; // [sentAt, scheduledAt]
      let buf = null;
      let need = -1;
      let chunked = false;
      let status = 0;
      let nextSlot = 0;
      let timer = null;

      const sendOne = () => {
        if (done) return;
        const t = now();
        if (interval > 0) {
          if (nextSlot === 0) nextSlot = t + Math.random() * interval;
          if (t < nextSlot) {
            if (!timer) timer = setTimeout(() => ((timer = null), sendOne()), nextSlot - t);
            return;
          }
          inflight.push([t, nextSlot]);
          nextSlot += interval;
        } else {
          inflight.push([t, t]);
        }
        sock.write(request);
      };

      sock.on('connect', () => {
        open++;
        for (let i = 0; i < pipelining; i++) sendOne();
      });
      sock.on('error', () => {
        errors++;
      });
      sock.on('close', () => {
        if (!done && open > 0) errors++;
      });
      sock.on('data', (d) => {
        buf = buf && buf.length ? Buffer.concat([buf, d]) : d;
        for (;;) {
          if (need < 0) {
            const h = buf.indexOf(CRLF2);
            if (h < 0) return;
            const head = buf.toString('latin1', 0, h);
            status = Number(head.slice(9, 12));
            const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
            chunked = !m && /\r\ntransfer-encoding:\s*chunked/i.test(head);
            if (!m && !chunked) {
              errors++;
              sock.destroy();
              return;
            }
            need = chunked ? -2 : h + 4 + Number(m[1]);
            if (chunked) {
              buf = buf.subarray(h + 4);
            }
          }
          let consumed;
          if (chunked) {
            const z = buf.indexOf('\r\n0\r\n\r\n');
            const z0 = buf.indexOf('0\r\n\r\n') === 0 ? 0 : -1;
            if (z < 0 && z0 < 0) return;
            consumed = z0 === 0 ? 5 : z + 7;
          } else {
            if (buf.length < need) return;
            consumed = need;
          }
          bytes += consumed;
          total++;
          buf = buf.subarray(consumed);
          need = -1;
          const t = now();
          const [sent, sched] = inflight.shift();
          if (!measuring && t >= measureFrom) measuring = true;
          if (measuring && (t <= end || (more() && t <= hardEnd))) {
            completed++;
            measuredUntil = t;
            if (status < 200 || status > 299) non2xx++;
            service.push(t - sent);
            if (interval > 0) corrected.push(t - sched);
          }
          if (t > end && (!more() || t > hardEnd)) return finish();
          sendOne();
        }
      });
    }
    const stopper = () => {
      if (more() && now() < hardEnd) return void setTimeout(stopper, 50).unref();
      finish();
    };
    setTimeout(stopper, warmup * 1000 + duration * 1000 + 50).unref();
    setTimeout(() => {
      if (open === 0) reject(new Error(`could not connect to ${url}`));
    }, 5000).unref();
  });
}

module.exports = { run, percentiles };

if (require.main === module) {
  const args = process.argv.slice(2);
  const o = {};
  for (let i = 0; i < args.length; i += 2) o[args[i].replace(/^--/, '')] = args[i + 1];
  run({
    url: o.url,
    connections: Number(o.connections ?? 50),
    pipelining: Number(o.pipelining ?? 1),
    warmup: Number(o.warmup ?? 2),
    duration: Number(o.duration ?? 8),
    rate: Number(o.rate ?? 0),
    method: o.method ?? 'GET',
    body: o['body-file'] ? require('node:fs').readFileSync(o['body-file']) : undefined,
    headers: o.authorization ? { authorization: o.authorization } : {},
  }).then(
    (r) => process.stdout.write(JSON.stringify(r) + '\n'),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
