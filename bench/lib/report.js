'use strict';
// The suite's report: Markdown tables (one per group, each contender's figures and Quarry's ratio
// to each) and SVG charts, from bench/workload.js's result.
const fs = require('node:fs');
const path = require('node:path');
const { barChart } = require('./svg');

const f = (n, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : 'n/a');
const ms = (n) => (Number.isFinite(n) ? (n >= 10 ? n.toFixed(1) : n >= 1 ? n.toFixed(2) : n.toFixed(3)) : 'n/a');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN);
const rx = (r) => (Number.isFinite(r) ? (r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toFixed(2)) + '×' : 'n/a');
const mb = (b) => (Number.isFinite(b) ? (b / 1e6).toFixed(1) + ' MB' : 'n/a');
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map((h, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

const CATEGORIES = ['text', 'term-level', 'sort & paging', 'count', 'aggregations'];

/** The goals of issue 6, measured. Returns rows [goal, target, measured, verdict]. */
function goals(s) {
  const os = s.contenders.opensearch;
  const q = s.contenders.quarry;
  const rows = [];
  const verdict = (ok) => (ok === null ? 'n/a' : ok ? 'MET' : 'NOT MET');
  if (os && q) {
    const ing = Object.keys(q.ingest).map((w) => [w, ratio(q.ingest[w].docs_per_s, os.ingest[w]?.docs_per_s)]);
    const minIng = Math.min(...ing.map((x) => x[1]));
    rows.push(['ingest docs/s ≥ 2.5× OpenSearch', '≥ 2.5×', ing.map(([w, r]) => `${w} ${rx(r)}`).join(', '), verdict(ing.length ? minIng >= 2.5 : null)]);
    const keys = Object.keys(q.ops).filter((k) => q.ops[k].gate?.ok && os.ops[k]?.service_ms);
    const p50 = keys.map((k) => [k, ratio(q.ops[k].service_ms.p50, os.ops[k].service_ms.p50)]);
    const p50bad = p50.filter(([, r]) => !(r <= 0.2));
    const failed = Object.keys(q.ops).filter((k) => !q.ops[k].gate?.ok);
    rows.push([
      'p50 ≤ 1/5 of OpenSearch, every op',
      '≤ 0.2×',
      `${p50.length - p50bad.length}/${p50.length} passing ops meet it (median ${rx(median(p50.map((x) => x[1])))})${p50bad.length ? `; misses: ${p50bad.map(([k, r]) => `${k} ${rx(r)}`).join(', ')}` : ''}; ${failed.length} ops FAILED the gate`,
      verdict(p50.length ? p50bad.length === 0 && failed.length === 0 : null),
    ]);
    const tp = keys.map((k) => [k, ratio(q.ops[k].throughput_rps, os.ops[k].throughput_rps)]);
    const tpbad = tp.filter(([, r]) => !(r >= 3));
    rows.push([
      'throughput ≥ 3× OpenSearch, every op',
      '≥ 3×',
      `${tp.length - tpbad.length}/${tp.length} passing ops meet it (median ${rx(median(tp.map((x) => x[1])))})${tpbad.length ? `; misses: ${tpbad.map(([k, r]) => `${k} ${rx(r)}`).join(', ')}` : ''}`,
      verdict(tp.length ? tpbad.length === 0 && failed.length === 0 : null),
    ]);
    const r1 = ratio(q.rss_after_ingest?.rss_mb, os.rss_after_ingest?.rss_mb);
    const r2 = ratio(q.rss_after_queries?.rss_mb, os.rss_after_queries?.rss_mb);
    rows.push(['RSS ≤ 1/5 of OpenSearch', '≤ 0.2×', `after ingest ${rx(r1)} (${f(q.rss_after_ingest?.rss_mb)} vs ${f(os.rss_after_ingest?.rss_mb)} MB), after queries ${rx(r2)} (${f(q.rss_after_queries?.rss_mb)} vs ${f(os.rss_after_queries?.rss_mb)} MB)`, verdict(r1 <= 0.2 && r2 <= 0.2)]);
    const su = ratio(q.startup_ms, os.startup_ms);
    rows.push(['start-up ≤ 1/10 of OpenSearch', '≤ 0.1×', `${rx(su)} (${f(q.startup_ms)} vs ${f(os.startup_ms)} ms)`, verdict(su <= 0.1)]);
  }
  if (q) {
    for (const e of ['minisearch', 'flexsearch']) {
      const c = s.contenders[e];
      if (!c) continue;
      const keys = Object.keys(c.ops).filter((k) => c.ops[k].service_ms);
      const cmp = keys.map((k) => [k, q.ops[k]?.gate?.ok === false ? NaN : ratio(q.ops[k]?.service_ms?.p50, c.ops[k].service_ms.p50)]);
      const bad = cmp.filter(([, r]) => !(r < 1));
      rows.push([
        `faster than ${e} on every text op (p50)`,
        '< 1×',
        `${cmp.length - bad.length}/${cmp.length} (median ${rx(median(cmp.map((x) => x[1])))})${bad.length ? `; not faster: ${bad.map(([k, r]) => `${k} ${rx(r)}`).join(', ')}` : ''}`,
        verdict(cmp.length ? bad.length === 0 : null),
      ]);
    }
  }
  return rows;
}

function median(xs) {
  const a = xs.filter(Number.isFinite).sort((x, y) => x - y);
  if (!a.length) return NaN;
  return a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
}

function suiteMarkdown(s, charts) {
  const C = s.contenders;
  const os = C.opensearch;
  const q = C.quarry;
  const lines = [];
  lines.push('### Goals (same-run ratios, Quarry ÷ OpenSearch unless stated)', '');
  lines.push(table(['goal', 'target', 'measured', ''], goals(s)), '');

  lines.push('### Start-up, memory, disk', '');
  const srv = ['quarry', 'opensearch'].filter((k) => C[k]);
  lines.push(
    table(
      ['', ...srv, 'Quarry ÷ OpenSearch'],
      [
        ['start-up to first `GET /` 200', ...srv.map((k) => `${f(C[k].startup_ms)} ms`), rx(ratio(q?.startup_ms, os?.startup_ms))],
        ['RSS after ingest', ...srv.map((k) => `${f(C[k].rss_after_ingest?.rss_mb)} MB`), rx(ratio(q?.rss_after_ingest?.rss_mb, os?.rss_after_ingest?.rss_mb))],
        ['RSS after the query mix', ...srv.map((k) => `${f(C[k].rss_after_queries?.rss_mb)} MB`), rx(ratio(q?.rss_after_queries?.rss_mb, os?.rss_after_queries?.rss_mb))],
        ['peak RSS', ...srv.map((k) => `${f(C[k].rss_after_queries?.peak_rss_mb)} MB`), rx(ratio(q?.rss_after_queries?.peak_rss_mb, os?.rss_after_queries?.peak_rss_mb))],
        ['index size on disk (all workloads, after `_flush`)', ...srv.map((k) => mb(C[k].index_bytes)), rx(ratio(q?.index_bytes, os?.index_bytes))],
        ['index size after force merge', ...srv.map((k) => (C[k].index_bytes_after_force_merge ? mb(C[k].index_bytes_after_force_merge) : 'not available')), ''],
      ],
    ),
    '',
  );
  const js = ['minisearch', 'flexsearch'].filter((k) => C[k]);
  if (js.length) {
    lines.push(
      `In-process engines (text fields of the text ops only, no HTTP): ${js
        .map((k) => `${k} ${C[k].version}: ${Object.entries(C[k].memory).map(([w, m]) => `${w} heap ${f(m.heap_mb)} MB, RSS ${f(m.rss_mb)} MB`).join('; ')}`)
        .join(' · ')}.`,
      '',
    );
  }

  lines.push('### Ingest (`_bulk`, schedule clients, then `_refresh`)', '');
  const ingRows = [];
  for (const w of s.workloads) {
    const row = [`${w.name} (${f(w.docs)} docs, ${(w.raw_bytes / 1e6).toFixed(1)} MB, bulk ${w.bulk_size} × ${w.bulk_clients} clients)`];
    for (const k of srv) {
      const i = C[k].ingest[w.name];
      row.push(i ? `${f(i.docs_per_s)} docs/s, ${f(i.mb_per_s, 1)} MB/s, bulk p50 ${ms(i.bulk_ms_p50)} ms, refresh ${f(i.refresh_ms)} ms${i.count_after_refresh !== i.docs ? ` (count ${i.count_after_refresh}!)` : ''}` : 'n/a');
    }
    for (const k of js) {
      const i = C[k].ingest[w.name];
      row.push(i ? `${f(i.docs_per_s)} docs/s (${i.fields.join(', ')})` : '—');
    }
    row.push(rx(ratio(q?.ingest[w.name]?.docs_per_s, os?.ingest[w.name]?.docs_per_s)));
    for (const k of js) row.push(rx(ratio(q?.ingest[w.name]?.docs_per_s, C[k].ingest[w.name]?.docs_per_s)));
    ingRows.push(row);
  }
  lines.push(table(['workload', ...srv, ...js.map((k) => `${k} (in-process index build)`), 'Quarry ÷ OpenSearch', ...js.map((k) => `Quarry ÷ ${k}`)], ingRows), '');
  const fm = os?.force_merge ?? {};
  if (Object.keys(fm).length) {
    lines.push(
      `Force merge to 1 segment: OpenSearch ${Object.entries(fm).map(([w, x]) => `${w} ${f(x.ms)} ms`).join(', ')}; Quarry: ${Object.values(q?.force_merge ?? {})[0]?.status < 300 ? Object.entries(q.force_merge).map(([w, x]) => `${w} ${f(x.ms)} ms`).join(', ') : 'not available (no `_forcemerge` yet)'}.`,
      '',
    );
  }

  const cols = ['quarry', 'opensearch', 'engine', 'minisearch', 'flexsearch'].filter((k) => C[k]);
  for (const cat of CATEGORIES) {
    const rows = [];
    for (const w of s.workloads) {
      for (const op of w.queries.filter((x) => x.category === cat)) {
        const key = `${w.name}/${op.name}`;
        const qe = q?.ops[key];
        const failed = qe && qe.gate && qe.gate.ok === false;
        const cell = (k) => {
          const e = C[k]?.ops[key];
          if (!e) return '—';
          if (e.applicable === false) return 'n/a';
          if ((k === 'quarry' || k === 'engine') && e.gate?.ok === false) return e.gate.unsupported ? 'FAILED (unsupported)' : 'FAILED';
          if (!e.service_ms) return e.sample ? `error ${e.sample.status}` : 'n/a';
          return `${ms(e.service_ms.p50)} / ${ms(e.service_ms.p90)} / ${ms(e.service_ms.p99)}`;
        };
        const gateCell = !qe?.gate ? '—' : qe.gate.ok ? 'ok' : qe.gate.ok === null ? 'not gated (no OpenSearch)' : `**FAILED**: ${qe.gate.reason.replace(/\|/g, '\\|')}`;
        const row = [`${w.name}/${op.name}${qe?.slow ? ` (slow: ${qe.slow})` : ''}`, gateCell];
        for (const k of cols) row.push(cell(k));
        row.push(failed ? '—' : `${f(qe?.throughput_rps)} / ${f(os?.ops[key]?.throughput_rps)}`);
        row.push(failed ? '—' : `${f(qe?.cpu_ms_per_1000)} / ${f(os?.ops[key]?.cpu_ms_per_1000)}`);
        const p = (k) => (failed ? 'n/a' : rx(ratio(qe?.service_ms?.p50, C[k]?.ops[key]?.service_ms?.p50)));
        row.push(cols.filter((k) => k !== 'quarry').map((k) => `${k} ${p(k)}`).join(', '));
        row.push(failed ? 'n/a' : rx(ratio(qe?.throughput_rps, os?.ops[key]?.throughput_rps)));
        rows.push(row);
      }
    }
    if (!rows.length) continue;
    lines.push(`### Queries: ${cat}`, '');
    lines.push(
      table(
        ['op', 'gate', ...cols.map((k) => `${k} p50 / p90 / p99 ms`), `req/s ×${os?.ops ? Object.values(q?.ops ?? {}).find((e) => e.throughput_clients)?.throughput_clients ?? '' : ''} Quarry / OpenSearch`, 'server CPU ms per 1,000 req Quarry / OpenSearch', 'Quarry p50 ÷ each', 'Quarry req/s ÷ OpenSearch'],
        rows,
      ),
      '',
    );
  }
  if (charts.length) {
    lines.push('### Charts', '');
    for (const c of charts) lines.push(`- [${c.title}](${c.file})`);
    lines.push('');
  }
  return lines.join('\n');
}

/** Writes the SVG charts into dir; returns [{file, title}]. */
function writeCharts(s, dir) {
  const C = s.contenders;
  const out = [];
  const put = (file, title, svg) => {
    fs.writeFileSync(path.join(dir, file), svg);
    out.push({ file, title });
  };
  const lat = ['quarry', 'opensearch', 'engine', 'minisearch', 'flexsearch'].filter((k) => C[k]);
  for (const w of s.workloads) {
    if (!w.queries.length) continue;
    const rows = w.queries.map((op) => {
      const key = `${w.name}/${op.name}`;
      const values = {};
      for (const k of lat) {
        const e = C[k].ops[key];
        if (!e || e.applicable === false) continue;
        values[k] = e.gate?.ok === false ? (e.gate.unsupported ? 'unsupported' : 'FAILED') : e.service_ms?.p50 ?? 'n/a';
      }
      return { label: op.name, values };
    });
    put(`latency-${w.name}.svg`, `p50 service time, ${w.name}`, barChart({ title: `${w.name}: p50 service time per op (1 client, closed loop)`, unit: 'ms', log: true, rows, series: lat }));
    const tps = ['quarry', 'opensearch'].filter((k) => C[k]);
    const trows = w.queries.map((op) => {
      const key = `${w.name}/${op.name}`;
      const values = {};
      for (const k of tps) {
        const e = C[k].ops[key];
        values[k] = e?.gate?.ok === false ? (e.gate.unsupported ? 'unsupported' : 'FAILED') : e?.throughput_rps ?? 'n/a';
      }
      return { label: op.name, values };
    });
    put(`throughput-${w.name}.svg`, `throughput, ${w.name}`, barChart({ title: `${w.name}: throughput per op (several clients)`, unit: 'req/s', log: true, rows: trows, series: tps }));
  }
  const ing = ['quarry', 'opensearch', 'minisearch', 'flexsearch'].filter((k) => C[k]);
  put(
    'ingest.svg',
    'ingest rate',
    barChart({
      title: 'Ingest rate (servers: _bulk over HTTP; JS engines: in-process build, text fields only)',
      unit: 'docs/s',
      rows: s.workloads.map((w) => ({ label: w.name, values: Object.fromEntries(ing.map((k) => [k, C[k].ingest?.[w.name]?.docs_per_s ?? null]).filter(([, v]) => v !== null)) })),
      series: ing,
    }),
  );
  const srv = ['quarry', 'opensearch'].filter((k) => C[k]);
  put(
    'memory.svg',
    'memory',
    barChart({
      title: 'Server RSS and index size',
      unit: 'MB',
      rows: [
        { label: 'RSS after ingest', values: Object.fromEntries(srv.map((k) => [k, C[k].rss_after_ingest?.rss_mb])) },
        { label: 'RSS after query mix', values: Object.fromEntries(srv.map((k) => [k, C[k].rss_after_queries?.rss_mb])) },
        { label: 'peak RSS', values: Object.fromEntries(srv.map((k) => [k, C[k].rss_after_queries?.peak_rss_mb])) },
        { label: 'index on disk', values: Object.fromEntries(srv.map((k) => [k, C[k].index_bytes / 1e6])) },
      ],
      series: srv,
    }),
  );
  put('startup.svg', 'start-up', barChart({ title: 'Start-up: spawn to first GET / 200', unit: 'ms', log: true, rows: [{ label: 'start-up', values: Object.fromEntries(srv.map((k) => [k, C[k].startup_ms])) }], series: srv }));
  return out;
}

module.exports = { suiteMarkdown, writeCharts, goals, median };
