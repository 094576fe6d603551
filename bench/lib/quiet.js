'use strict';
// Whether the machine is quiet before a bench starts: the CPU other processes use over a short
// window, from /proc. On 2 cores even a mostly idle neighbour costs the benches dearly (an
// OpenSearch oracle left running, at about 3% of a core, halved HTTP ingest in one session while
// the engine alone lost a tenth), so the summary names whatever ran beside them.
const fs = require('node:fs');

const TICK = 100; // USER_HZ on Linux

function readCpu() {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3] + (v[4] || 0);
  return { total: v.reduce((a, b) => a + b, 0), idle };
}

function readProcs() {
  const out = new Map();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const f = stat.slice(close + 2).split(' ');
      out.set(Number(pid), { comm, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return out;
}

/** Kernel threads (an empty command line) are the machine's own housekeeping. */
function isKernelThread(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`).length === 0;
  } catch {
    return true;
  }
}

/** CPU busy (% of all cores) over `seconds`, and the other processes above 1% of a core. */
async function quietCheck(seconds = 2) {
  if (!fs.existsSync('/proc/stat')) return null;
  const c0 = readCpu();
  const p0 = readProcs();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const c1 = readCpu();
  const p1 = readProcs();
  const total = c1.total - c0.total;
  const busyPct = total > 0 ? (100 * (total - (c1.idle - c0.idle))) / total : 0;
  const others = [];
  for (const [pid, p] of p1) {
    if (pid === process.pid || isKernelThread(pid)) continue;
    const before = p0.get(pid);
    if (!before) continue;
    const pct = (100 * (p.ticks - before.ticks)) / TICK / seconds;
    if (pct >= 1) others.push({ pid, comm: p.comm, pct: Math.round(pct * 10) / 10 });
  }
  others.sort((a, b) => b.pct - a.pct);
  return { seconds, busy_pct: Math.round(busyPct * 10) / 10, others };
}

/** One summary line, with a warning when anything else ran. */
function quietLine(q) {
  if (!q) return 'Host quiet check: not available here.';
  const who = q.others.map((o) => `${o.comm} (pid ${o.pid}) ${o.pct}% of a core`).join(', ');
  const base = `Host before the run: ${q.busy_pct}% of the CPU busy over ${q.seconds} s`;
  return q.others.length === 0
    ? `${base}; no other process used 1% of a core.`
    : `${base}; **other processes were running, so these figures understate Quarry**: ${who}.`;
}

module.exports = { quietCheck, quietLine };
