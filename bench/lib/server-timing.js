'use strict';
// Preloaded (`node -r`) into a server a bench starts: each HTTP request's time inside the
// server, from node's `request` event (headers parsed) to the response's `finish` (its last
// bytes handed to the kernel). The client's own time (its send, its wake-up, loopback) is left
// out, which on a 2-vCPU VM shared with the load generator is a large part of a fast request;
// so is the time a request waits before the event loop reads it.
//
// QUARRY_BENCH_TIMING names a file; QUARRY_BENCH_TIMING_PATH, when set, limits the times to
// requests for that URL. On SIGUSR2 the times (ms, in the order the responses finished) since
// the last signal are written there (whole, by rename) and forgotten.
const fs = require('node:fs');
const http = require('node:http');

const file = process.env.QUARRY_BENCH_TIMING;
const only = process.env.QUARRY_BENCH_TIMING_PATH;
if (file) {
  let times = [];
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function timedEmit(event, req, res) {
    if (event === 'request' && (only === undefined || req.url === only)) {
      const t0 = process.hrtime.bigint();
      res.once('finish', () => times.push(Number(process.hrtime.bigint() - t0) / 1e6));
    }
    // eslint-disable-next-line prefer-rest-params
    return emit.apply(this, arguments);
  };
  process.on('SIGUSR2', () => {
    const taken = times;
    times = [];
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(taken));
    fs.renameSync(`${file}.tmp`, file);
  });
}
