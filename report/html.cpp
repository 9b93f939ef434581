// The self-contained HTML report: inline CSS, an embedded JSON blob, and inline JS that draws
// SVG charts and the tables. No external resource of any kind, so it opens offline.
#include <string>

#include <fmt/format.h>

#include "report/html_data.h"
#include "report/writers.h"

namespace kvz {

namespace {

const char* const kStyle = R"CSS(
body{font:14px/1.4 system-ui,sans-serif;margin:20px;color:#222;max-width:1400px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}td.num{text-align:right}th{background:#f3f3f3;cursor:pointer;user-select:none}
.meta td{text-align:left}.charts{display:flex;flex-wrap:wrap;gap:16px}
.chart{border:1px solid #ddd;padding:6px}.chart h3{font-size:14px;margin:2px 0 4px}
.fail{color:#b00}.axis{stroke:#555}.grid{stroke:#eee}.front-line{fill:none;stroke:#000;stroke-dasharray:4 3}
.pt.front{stroke:#000;stroke-width:1.5}.legend{font-size:11px}.note{color:#666;font-size:12px}
#filter{width:320px;margin:6px 0}
)CSS";

const char* const kScript = R"JS(
(function(){
'use strict';
const D = JSON.parse(document.getElementById('kvz-data').textContent);
const NS = 'http://www.w3.org/2000/svg';
const COLORS = ['#1f77b4','#d62728','#2ca02c','#ff7f0e','#9467bd','#8c564b','#e377c2','#7f7f7f','#bcbd22','#17becf',
                '#393b79','#637939','#8c6d31','#843c39','#7b4173','#3182bd','#e6550d','#31a354','#756bb1','#636363'];
function el(tag, attrs, parent, text){
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
function h(tag, text, parent, cls){
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = text;
  if (cls) e.className = cls;
  if (parent) parent.appendChild(e);
  return e;
}
function fmt(v, d){
  if (v === null || v === undefined) return '';
  if (typeof v !== 'number') return String(v);
  if (Number.isInteger(v)) return String(v);
  if (Math.abs(v) >= 1000) return v.toFixed(0);
  return v.toPrecision(d || 4);
}
function bytes(v){ return v >= 1048576 && v % 1048576 === 0 ? (v/1048576)+'M' : v >= 1024 && v % 1024 === 0 ? (v/1024)+'K' : String(v); }
function scale(lo, hi, a, b, log){
  if (log){ lo = Math.log10(lo); hi = Math.log10(hi); }
  if (hi === lo){ lo -= 1; hi += 1; }
  return v => a + ((log ? Math.log10(v) : v) - lo) / (hi - lo) * (b - a);
}
function ticks(lo, hi, log, pow2){
  const t = [];
  if (pow2){
    for (let v = Math.pow(2, Math.ceil(Math.log2(lo))); v <= hi; v *= 2) t.push(v);
    if (t.length > 8) return t.filter((v, i) => i % 2 === 0);
    return t;
  }
  if (log){
    for (let p = Math.floor(Math.log10(lo)); p <= Math.ceil(Math.log10(hi)); p++)
      for (const m of [1, 2, 5]){ const v = m * Math.pow(10, p); if (v >= lo && v <= hi) t.push(v); }
    if (t.length < 2){ t.push(lo, hi); }
    return t;
  }
  const step = Math.pow(10, Math.floor(Math.log10((hi - lo) || 1)));
  const s = (hi - lo) / step > 5 ? step * 2 : step / 2 >= 0 && (hi - lo) / step < 2 ? step / 2 : step;
  for (let v = Math.ceil(lo / s) * s; v <= hi + 1e-9; v += s) t.push(+v.toPrecision(6));
  return t;
}
function range(vals, log, pad){
  let lo = Math.min(...vals), hi = Math.max(...vals);
  if (log){ lo /= 1.3; hi *= 1.3; } else { const p = (hi - lo) * pad || Math.abs(hi) * 0.1 || 1; lo -= p; hi += p; }
  return [lo, hi];
}
const W = 640, H = 380, M = {l: 60, r: 190, t: 10, b: 45};
function frame(svg, c, xs, ys, xr, yr, xlog, ylog, xbytes){
  for (const v of ticks(xr[0], xr[1], xlog, xbytes)){
    el('line', {x1: xs(v), x2: xs(v), y1: M.t, y2: H - M.b, class: 'grid'}, svg);
    el('text', {x: xs(v), y: H - M.b + 14, 'text-anchor': 'middle', 'font-size': 10}, svg, xbytes ? bytes(v) : fmt(v, 3));
  }
  for (const v of ticks(yr[0], yr[1], ylog)){
    el('line', {x1: M.l, x2: W - M.r, y1: ys(v), y2: ys(v), class: 'grid'}, svg);
    el('text', {x: M.l - 4, y: ys(v) + 3, 'text-anchor': 'end', 'font-size': 10}, svg, fmt(v, 3));
  }
  el('rect', {x: M.l, y: M.t, width: W - M.l - M.r, height: H - M.t - M.b, fill: 'none', class: 'axis'}, svg);
  el('text', {x: (M.l + W - M.r) / 2, y: H - 8, 'text-anchor': 'middle', 'font-size': 12}, svg, c.x || '');
  el('text', {x: 14, y: (M.t + H - M.b) / 2, 'text-anchor': 'middle', 'font-size': 12,
              transform: 'rotate(-90 14 ' + (M.t + H - M.b) / 2 + ')'}, svg, c.y || '');
}
function legend(svg, names){
  names.forEach((n, i) => {
    const y = M.t + 8 + i * 14;
    if (y > H - 10) return;
    el('rect', {x: W - M.r + 10, y: y - 8, width: 10, height: 10, fill: COLORS[i % COLORS.length]}, svg);
    el('text', {x: W - M.r + 24, y: y + 1, class: 'legend'}, svg, n);
  });
}
function scatter(svg, c){
  const pts = [].concat(...c.series.map(s => s.points));
  if (!pts.length) return;
  const xr = range(pts.map(p => p.x), c.xlog, 0.05);
  const ys0 = pts.map(p => p.y).concat(c.yline !== undefined ? [c.yline] : []);
  const yr = range(ys0, c.ylog, 0.08);
  const xs = scale(xr[0], xr[1], M.l, W - M.r, c.xlog), ys = scale(yr[0], yr[1], H - M.b, M.t, c.ylog);
  frame(svg, c, xs, ys, xr, yr, c.xlog, c.ylog, c.xbytes);
  if (c.yline !== undefined)
    el('line', {x1: M.l, x2: W - M.r, y1: ys(c.yline), y2: ys(c.yline), stroke: '#999', 'stroke-dasharray': '2 2'}, svg);
  if (c.front){
    const groups = {};
    for (const p of pts) if (p.front) (groups[p.g] = groups[p.g] || []).push(p);
    for (const g in groups){
      const f = groups[g].sort((a, b) => a.x - b.x);
      if (f.length > 1) el('polyline', {class: 'front-line', points: f.map(p => xs(p.x) + ',' + ys(p.y)).join(' ')}, svg);
    }
  }
  c.series.forEach((s, i) => {
    const col = COLORS[i % COLORS.length];
    if (c.lines && s.points.length > 1){
      const ps = s.points.slice().sort((a, b) => a.x - b.x);
      el('polyline', {fill: 'none', stroke: col, 'stroke-width': 1.2, points: ps.map(p => xs(p.x) + ',' + ys(p.y)).join(' ')}, svg);
    }
    for (const p of s.points){
      const dot = el('circle', {cx: xs(p.x), cy: ys(p.y), r: 4, fill: col, 'fill-opacity': 0.8,
                                class: 'pt' + (c.front && p.front ? ' front' : '')}, svg);
      el('title', {}, dot, p.tip + (c.front && p.front ? ' (Pareto front)' : ''));
    }
  });
  legend(svg, c.series.map(s => s.name));
}
function bars(svg, c){
  const vals = [].concat(...c.series.map(s => s.values)).filter(v => v > 0);
  if (!vals.length) return;
  const yr = range(vals, true, 0);
  const ys = scale(yr[0], yr[1], H - M.b, M.t, true);
  const n = c.categories.length, bw = (W - M.l - M.r) / Math.max(n, 1), k = c.series.length;
  const xs = () => 0;
  frame(svg, {x: '', y: c.y}, xs, ys, [0, 1], yr, false, true);
  svg.querySelectorAll('text[text-anchor="middle"][font-size="10"]').forEach(t => t.remove());
  c.categories.forEach((cat, ci) => {
    const x0 = M.l + ci * bw;
    el('text', {x: x0 + bw / 2, y: H - M.b + 12, 'text-anchor': 'end', 'font-size': 9,
                transform: 'rotate(-30 ' + (x0 + bw / 2) + ' ' + (H - M.b + 12) + ')'}, svg, cat);
    c.series.forEach((s, si) => {
      const v = s.values[ci];
      if (!(v > 0)) return;
      const w = bw * 0.8 / k, x = x0 + bw * 0.1 + si * w;
      const r = el('rect', {x: x, y: ys(v), width: Math.max(w - 1, 1), height: H - M.b - ys(v),
                            fill: COLORS[si % COLORS.length], class: 'pt'}, svg);
      el('title', {}, r, cat + ' | ' + s.name + ': ' + fmt(v) + ' us');
    });
  });
  legend(svg, c.series.map(s => s.name));
}
function drawCharts(){
  for (const c of D.charts){
    const box = document.getElementById('chart-' + c.id);
    const svg = el('svg', {width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, class: 'plot'}, null);
    box.appendChild(svg);
    if (c.kind === 'bar') bars(svg, c); else scatter(svg, c);
    const drawn = svg.querySelectorAll('.pt').length;
    svg.setAttribute('data-points', drawn);
    box.setAttribute('data-drawn', drawn);
    if (!drawn) h('p', 'no data for this chart in these results', box, 'note');
  }
}
function table(parent, cols, rows, opts){
  const t = h('table', null, parent);
  const thead = h('thead', null, t), tr = h('tr', null, thead);
  const tbody = h('tbody', null, t);
  let sortCol = -1, asc = true;
  function render(){
    tbody.textContent = '';
    const f = opts && opts.filter ? opts.filter.value.toLowerCase() : '';
    let rs = rows.filter(r => !f || cols.map(c => String(r[c.k] ?? '')).join(' ').toLowerCase().includes(f));
    if (sortCol >= 0){
      const k = cols[sortCol].k;
      rs = rs.slice().sort((a, b) => {
        const x = a[k], y = b[k];
        if (x === y) return 0; if (x === null || x === undefined) return 1; if (y === null || y === undefined) return -1;
        return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * (asc ? 1 : -1);
      });
    }
    for (const r of rs){
      const row = h('tr', null, tbody);
      for (const c of cols){
        const td = h('td', c.f ? c.f(r[c.k]) : fmt(r[c.k]), row);
        if (typeof r[c.k] === 'number') td.className = 'num';
        if (String(r[c.k]).startsWith('FAILED')) td.className = 'fail';
      }
    }
    if (opts && opts.count) opts.count.textContent = rs.length + ' of ' + rows.length + ' rows';
  }
  cols.forEach((c, i) => {
    const th = h('th', c.t, tr);
    th.addEventListener('click', () => { asc = sortCol === i ? !asc : true; sortCol = i; render(); });
  });
  if (opts && opts.filter) opts.filter.addEventListener('input', render);
  render();
  return t;
}
function drawMeta(){
  const box = document.getElementById('meta');
  D.runs.forEach((m, i) => {
    if (D.runs.length > 1) h('h3', 'Run ' + (i + 1), box);
    const t = h('table', null, box, 'meta');
    for (const k in m){
      const tr = h('tr', null, t);
      h('th', k, tr);
      h('td', Array.isArray(m[k]) ? m[k].join('; ') : String(m[k]), tr);
    }
  });
}
function drawTables(){
  const st = document.getElementById('stalls');
  table(st, D.stalls.columns, D.stalls.rows);

  const rec = document.getElementById('recs');
  for (const g of D.recommendations){
    h('h3', g.group, rec);
    table(rec, [{k: 'workload', t: 'workload'}, {k: 'choice', t: 'choice'}, {k: 'rule', t: 'rule'}, {k: 'why', t: 'figures behind it'}], g.picks);
  }
  if (!D.recommendations.length) h('p', 'no measured cells to recommend from', rec, 'note');

  const io = document.getElementById('io');
  h('p', 'Devices: ' + D.devices.join('; ') + '. Effective time = latency + stored bytes / bandwidth + block / decompress speed.', io, 'note');
  const iof = document.getElementById('io-filter');
  table(io, [{k: 'cell', t: 'cell'}, {k: 'device', t: 'device'}, {k: 'raw_us', t: 'raw read us'},
             {k: 'effective_us', t: 'read+decompress us'}, {k: 'speedup', t: 'speedup'}], D.io, {filter: iof});

  const stores = document.getElementById('stores');
  if (D.stores.length){
    h('h2', 'Store profiles', stores);
    table(stores, [{k: 'profile', t: 'store'}, {k: 'codec', t: 'codec'}, {k: 'stored_bytes', t: 'stored bytes'},
                   {k: 'stored_ratio', t: 'stored ratio'}, {k: 'c_mbps', t: 'compress MB/s'},
                   {k: 'd_mbps', t: 'decompress MB/s'}, {k: 'worst_us', t: 'worst call us'}], D.stores);
  }

  const cells = document.getElementById('cells');
  // The columns come from report/columns.cpp, the table every output reads.
  const cols = D.cell_columns.map(c => c.bytes ? {k: c.k, t: c.t, f: bytes} : {k: c.k, t: c.t});
  table(cells, cols, D.cells, {filter: document.getElementById('filter'), count: document.getElementById('count')});
}
try {
  drawMeta(); drawCharts(); drawTables();
  document.body.setAttribute('data-status', 'ok');
} catch (e) {
  document.body.setAttribute('data-status', 'error');
  console.error('kvzbench report: ' + e.message);
}
})();
)JS";

std::string escape_html(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

// JSON inside <script>: "</" would end the element early; "<\/" is the same JSON string.
std::string script_safe(std::string s) {
  for (size_t i = 0; (i = s.find("</", i)) != std::string::npos; i += 3) s.replace(i, 2, "<\\/");
  return s;
}

}  // namespace

bool write_html(const std::string& path, const std::vector<RunResults>& runs, const ReportOptions& opt,
                std::string& error) {
  const auto data = html_data(runs, opt);
  std::string charts;
  for (const auto& c : data.at("charts"))
    charts += fmt::format("<div class=\"chart\" id=\"chart-{}\" data-expected=\"{}\"><h3>{}</h3></div>\n",
                          c.at("id").get<std::string>(), c.at("expected").get<size_t>(),
                          escape_html(c.at("title").get<std::string>()));
  size_t cells = 0;
  for (const auto& r : runs) cells += r.cells.size();
  std::string page;
  page += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>kvzbench report</title>\n<style>";
  page += kStyle;
  page += "</style></head>\n<body>\n<h1>kvzbench report</h1>\n";
  page += fmt::format(
      "<p class=\"note\">{} run(s), {} cells. MB/s are decimal (10<sup>6</sup> bytes/s of "
      "uncompressed data), medians over repetitions. Hover a point for codec, level, block and "
      "dictionary.</p>\n",
      runs.size(), cells);
  page += "<h2>Run metadata</h2>\n<div id=\"meta\"></div>\n";
  page +=
      "<h2>Charts</h2>\n<p class=\"note\">Dashed line: Pareto front (no other cell of the same block set is "
      "both faster and smaller).</p>\n<div class=\"charts\">\n" +
      charts + "</div>\n";
  page +=
      "<h2>Stalls per codec: blocks that stall every time (intrinsic) and observed calls</h2>\n<div "
      "id=\"stalls\"></div>\n";
  page += "<h2>Recommendations</h2>\n<div id=\"recs\"></div>\n";
  page +=
      "<h2>I/O model</h2>\n<details><summary>effective read time per cell and device (table)</summary>\n"
      "<input id=\"io-filter\" placeholder=\"filter I/O rows\">\n<div id=\"io\"></div>\n</details>\n";
  page += "<div id=\"stores\"></div>\n";
  page +=
      "<h2>All cells</h2>\n<input id=\"filter\" placeholder=\"filter: codec, source, layout...\"> <span "
      "id=\"count\" class=\"note\"></span>\n<div id=\"cells\"></div>\n";
  page += "<script type=\"application/json\" id=\"kvz-data\">" +
          script_safe(data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) + "</script>\n";
  page += "<script>";
  page += kScript;
  page += "</script>\n</body></html>\n";
  return write_text_file(path, page, error);
}

bool write_html(const std::string& path, const std::vector<RunResults>& runs, std::string& error) {
  return write_html(path, runs, ReportOptions{}, error);
}

}  // namespace kvz
