'use strict';
// Minimal SVG charts, no dependencies: horizontal grouped bars, linear or log scale.
//   barChart({ title, unit, log, rows: [{ label, values: { series: number|null } }], series: [names] })
// A missing value (null/NaN) draws a small "n/a" mark so an absent contender is visible.

const COLORS = { quarry: '#2b7bb9', opensearch: '#e5843b', engine: '#5aa469', minisearch: '#a46ac8', flexsearch: '#c9a227' };
const FALLBACK = ['#2b7bb9', '#e5843b', '#5aa469', '#a46ac8', '#c9a227', '#888888'];

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function fmt(v) {
  if (!Number.isFinite(v)) return 'n/a';
  if (v >= 100) return Math.round(v).toLocaleString('en-US');
  if (v >= 10) return v.toFixed(1);
  if (v >= 1) return v.toFixed(2);
  return v.toFixed(3);
}

function barChart({ title, unit, log = false, rows, series, note }) {
  const barH = 11;
  const gap = 8;
  const labelW = 230;
  const plotW = 520;
  const valueW = 70;
  const top = 46;
  const groupH = series.length * barH + gap;
  const height = top + rows.length * groupH + 40;
  const width = labelW + plotW + valueW + 20;
  const vals = rows.flatMap((r) => series.map((s) => r.values[s])).filter((v) => Number.isFinite(v) && v > 0);
  const max = vals.length ? Math.max(...vals) : 1;
  const min = vals.length ? Math.min(...vals) : 1;
  let lo = 0;
  let hi = max * 1.05;
  let x;
  const ticks = [];
  if (log) {
    lo = Math.pow(10, Math.floor(Math.log10(min)));
    hi = Math.pow(10, Math.ceil(Math.log10(max)));
    if (hi <= lo) hi = lo * 10;
    x = (v) => (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) * plotW;
    for (let t = lo; t <= hi * 1.0001; t *= 10) ticks.push(t);
  } else {
    x = (v) => (v / hi) * plotW;
    const step = niceStep(hi / 5);
    for (let t = 0; t <= hi; t += step) ticks.push(t);
  }
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="11">`);
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  out.push(`<text x="10" y="18" font-size="14" font-weight="bold">${esc(title)}</text>`);
  // legend
  let lx = labelW;
  series.forEach((s, i) => {
    const c = COLORS[s] ?? FALLBACK[i % FALLBACK.length];
    out.push(`<rect x="${lx}" y="27" width="10" height="10" fill="${c}"/><text x="${lx + 14}" y="36">${esc(s)}</text>`);
    lx += 18 + s.length * 7;
  });
  // grid
  for (const t of ticks) {
    const gx = labelW + x(t);
    out.push(`<line x1="${gx.toFixed(1)}" y1="${top - 4}" x2="${gx.toFixed(1)}" y2="${height - 30}" stroke="#ddd"/>`);
    out.push(`<text x="${gx.toFixed(1)}" y="${height - 18}" text-anchor="middle" fill="#555">${esc(fmt(t))}</text>`);
  }
  out.push(`<text x="${labelW + plotW / 2}" y="${height - 4}" text-anchor="middle" fill="#333">${esc(unit)}${log ? ' (log scale)' : ''}</text>`);
  rows.forEach((r, ri) => {
    const y0 = top + ri * groupH;
    out.push(`<text x="${labelW - 6}" y="${(y0 + (series.length * barH) / 2 + 4).toFixed(1)}" text-anchor="end">${esc(r.label)}</text>`);
    series.forEach((s, si) => {
      const v = r.values[s];
      const y = y0 + si * barH;
      const c = COLORS[s] ?? FALLBACK[si % FALLBACK.length];
      if (Number.isFinite(v) && v > 0) {
        const w = Math.max(1, x(v));
        out.push(`<rect x="${labelW}" y="${y}" width="${w.toFixed(1)}" height="${barH - 2}" fill="${c}"><title>${esc(`${r.label} · ${s}: ${fmt(v)} ${unit}`)}</title></rect>`);
        out.push(`<text x="${(labelW + w + 3).toFixed(1)}" y="${y + barH - 3}" font-size="9" fill="#333">${esc(fmt(v))}</text>`);
      } else if (r.values[s] !== undefined) {
        out.push(`<text x="${labelW + 3}" y="${y + barH - 3}" font-size="9" fill="#b00">${esc(typeof r.values[s] === 'string' ? r.values[s] : 'n/a')} (${esc(s)})</text>`);
      }
    });
  });
  if (note) out.push(`<text x="10" y="${height - 4}" font-size="9" fill="#666">${esc(note)}</text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}

function niceStep(raw) {
  const p = Math.pow(10, Math.floor(Math.log10(raw || 1)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

module.exports = { barChart };
