// kvzbench's HTML report: the answer first, then charts and tables, all filtered by one set
// of selectors (also read from the URL hash: #source=twitter.json&block=16384&store=rocksdb).
// Charts are drawn with Chart.js 3.9 (inlined from Debian's libjs-chart.js). The data blob is
// written by report/html_data.cpp; each chart box records what it drew (data-points,
// data-series, data-legend) for the headless-browser test.
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('kvz-data').textContent);
  const multiRun = D.runs.length > 1;

  // --- small helpers --------------------------------------------------------------------
  function h(tag, text, parent, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    if (parent) parent.appendChild(e);
    return e;
  }
  function fmt(v, d) {
    if (v === null || v === undefined) return '';
    if (typeof v !== 'number') return String(v);
    if (Number.isInteger(v)) return String(v);
    if (Math.abs(v) >= 1000) return v.toFixed(0);
    return v.toPrecision(d || 4);
  }
  function bytes(v) {
    v = Number(v);
    if (v >= 1048576 && v % 1048576 === 0) return v / 1048576 + 'M';
    if (v >= 1024 && v % 1024 === 0) return v / 1024 + 'K';
    return String(v);
  }
  function parseSize(s) {
    const m = /^(\d+)([KkMm]?)$/.exec(String(s));
    if (!m) return s;
    return String(Number(m[1]) * ({ '': 1, k: 1024, m: 1048576 })[m[2].toLowerCase()]);
  }
  // Distinct colours for any number of series: golden-angle hues, alternating lightness.
  function color(i) {
    const hue = (i * 137.508) % 360;
    return 'hsl(' + hue.toFixed(1) + ',' + (i % 2 ? 55 : 75) + '%,' + (i % 3 === 2 ? 32 : 45) + '%)';
  }
  const RUN_STYLES = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot'];
  function uniq(a) {
    return [...new Set(a)];
  }
  function runTag(run) {
    return multiRun ? ' · run ' + run : '';
  }

  // --- selection --------------------------------------------------------------------------
  const cells = D.cells;
  const sources = uniq(cells.map((r) => r.source)).sort();
  const blocks = uniq(cells.map((r) => String(r.block_size))).sort((a, b) => a - b);
  const layouts = uniq(cells.map((r) => r.layout)).sort();
  const families = uniq(cells.filter((r) => r.m.ok && !r.m.ref).map((r) => r.m.codec)).sort();
  const S = { store: D.answer.default_store, source: sources[0] || 'all', block: 'all', layout: 'all',
              dir: 'decompress', family: 'all' };
  const CHOICES = {
    store: D.answer.stores,
    source: sources.concat(['all']),
    block: ['all'].concat(blocks),
    layout: ['all'].concat(layouts),
    dir: ['decompress', 'compress'],
    family: ['all'].concat(families),
  };
  const NAMES = { store: 'config syntax', source: 'source', block: 'block', layout: 'layout', dir: 'speed',
                  family: 'codec' };
  function readHash() {
    const q = new URLSearchParams(location.hash.slice(1));
    for (const k in S) {
      if (!q.has(k)) continue;
      const v = k === 'block' ? parseSize(q.get(k)) : q.get(k);
      if (CHOICES[k].includes(v)) S[k] = v;
    }
  }
  function inSet(r) {
    return (S.source === 'all' || r.source === S.source) && (S.block === 'all' || String(r.block_size) === S.block) &&
           (S.layout === 'all' || r.layout === S.layout);
  }
  function selected() {
    return cells.filter((r) => r.m.ok && !r.m.ref && inSet(r) && (S.family === 'all' || r.m.codec === S.family));
  }
  function drawControls() {
    const bar = document.getElementById('controls');
    for (const k in S) {
      const lab = h('label', NAMES[k] + ' ', bar);
      const sel = h('select', null, lab);
      sel.id = 'sel-' + k;
      for (const v of CHOICES[k]) {
        const o = h('option', k === 'block' && v !== 'all' ? bytes(v) : v, sel);
        o.value = v;
      }
      sel.value = S[k];
      sel.addEventListener('change', () => {
        S[k] = sel.value;
        history.replaceState(null, '', '#' + new URLSearchParams(S).toString());
        redraw();
      });
    }
  }

  // --- the answer ---------------------------------------------------------------------------
  function drawAnswer() {
    const box = document.getElementById('answer-body');
    box.textContent = '';
    const groups = D.answer.groups.filter((g) => (S.source === 'all' || g.source === S.source) &&
        (S.block === 'all' || String(g.block) === S.block) && (S.layout === 'all' || g.layout === S.layout));
    if (!groups.length) {
      h('p', 'no measured cells for this selection', box, 'note');
      return;
    }
    const t = h('table', null, box, 'answer');
    const head = h('tr', null, h('thead', null, t));
    for (const c of ['source · block', 'workload', 'choice', 'the figures behind it', 'configuration (' + S.store + ')'])
      h('th', c, head);
    const body = h('tbody', null, t);
    const rules = new Map();
    for (const g of groups) {
      const picks = g.by_store[S.store] || g.by_store.any;
      picks.forEach((p, i) => {
        const tr = h('tr', null, body);
        if (i === 0) {
          const td = h('td', g.source + ' · ' + bytes(g.block) + ' ' + g.layout + (g.profile ? ' (' + g.profile + ')' : '') +
                       runTag(g.run), tr, 'group');
          if (g.file) h('div', g.file, td, 'note');  // a store file's own blocks: its codec and bytes
          td.rowSpan = picks.length;
        }
        h('td', p.workload, tr);
        h('td', p.choice, tr, 'choice');
        const why = h('td', p.why, tr, 'why');
        if (p.switch) h('div', p.switch, why, 'switch');
        const cfg = h('td', null, tr);
        if (p.config !== undefined) h(p.writable ? 'code' : 'span', p.config, cfg, p.writable ? '' : 'note');
        else h('span', S.store === 'any' ? 'choose a store for its configuration line' : '', cfg, 'note');
        rules.set(p.workload, p.rule);
      });
    }
    const list = document.getElementById('rules');
    list.textContent = '';
    for (const [w, r] of rules) {
      const li = h('li', null, list);
      h('b', w + ': ', li);
      li.appendChild(document.createTextNode(r));
    }
  }

  // --- charts -------------------------------------------------------------------------------
  const charts = {};
  function baseOptions(xTitle, yTitle, xType, yType) {
    return {
      animation: false, responsive: true, maintainAspectRatio: false,
      plugins: {
        legend: { position: 'right', labels: { boxWidth: 10, font: { size: 11 } } },
        tooltip: { callbacks: { label: (ctx) => (ctx.raw && ctx.raw.tip) || ctx.dataset.label + ': ' + fmt(ctx.parsed.y) } },
      },
      scales: {
        x: { type: xType, title: { display: true, text: xTitle }, ticks: { font: { size: 11 } } },
        y: { type: yType, title: { display: true, text: yTitle }, ticks: { font: { size: 11 } } },
      },
    };
  }
  function draw(id, config) {
    const box = document.getElementById('chart-' + id);
    if (charts[id]) charts[id].destroy();
    const old = box.querySelector('p.note');
    if (old) old.remove();
    charts[id] = new Chart(box.querySelector('canvas'), config);
    const c = charts[id];
    const counted = c.data.datasets.filter((d) => !d.guide);
    const points = counted.reduce((n, d) => n + d.data.filter((v) => v !== null && v !== undefined).length, 0);
    box.dataset.points = points;
    box.dataset.series = c.data.datasets.length;
    box.dataset.legend = c.legend ? c.legend.legendItems.length : 0;
    if (!points) h('p', 'no data for this chart and selection', box, 'note');
  }
  function scatterSets(groups, styleOf) {
    return [...groups.entries()].map(([name, pts], i) => ({
      label: name, data: pts, backgroundColor: color(i), borderColor: color(i), pointStyle: styleOf(pts),
      pointRadius: 4,
    }));
  }
  function tip(r) {
    return r.label + ' | ' + r.source + ' ' + r.layout + ' ' + bytes(r.block_size) + runTag(r.run) + ' | stored ratio ' +
           fmt(r.stored_ratio) + ', compress ' + fmt(r.m.c_mbps) + ' MB/s, decompress ' + fmt(r.m.d_mbps) + ' MB/s';
  }
  function blockSetOf(r) {
    return r.source + ' ' + r.layout + ' ' + bytes(r.block_size) + (r.profile ? ' ' + r.profile : '') + runTag(r.run);
  }
  // Ratio against speed; the Pareto front of each block set (no cell of it both faster and
  // smaller) is a dashed line of its own.
  // One block set at a time (source, layout, block size, store profile; every run's cells of
  // it): the first of the selection, in source, layout, block size order, unless the
  // selectors name one.
  function firstBlockSet(sel) {
    const key = (r) => [r.source, r.layout, Number(r.block_size), r.profile || ''];
    let first = null;
    for (const r of sel) {
      const k = key(r);
      if (!first || k[0] < first[0] || (k[0] === first[0] && (k[1] < first[1] || (k[1] === first[1] &&
          (k[2] < first[2] || (k[2] === first[2] && k[3] < first[3]))))))
        first = k;
    }
    return first ? sel.filter((r) => key(r).join('|') === first.join('|')) : [];
  }
  function ratioChart(all) {
    const sel = firstBlockSet(all);
    const title = document.querySelector('#chart-ratio h3');
    title.textContent = 'Stored ratio against speed, per codec; dashed: the Pareto front' +
        (sel.length ? ' — ' + sel[0].source + ' ' + sel[0].layout + ' ' + bytes(sel[0].block_size) +
                      (sel.length < all.length ? ' (one block set at a time: choose source and block above)' : '')
                    : '');
    const key = S.dir === 'compress' ? 'c_mbps' : 'd_mbps';
    const groups = new Map(), sets = new Map();
    for (const r of sel) {
      if (!(r.m[key] > 0)) continue;
      const name = r.m.codec + runTag(r.run);
      const p = { x: r.m[key], y: r.stored_ratio, tip: tip(r), run: r.run };
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name).push(p);
      const bs = blockSetOf(r);
      if (!sets.has(bs)) sets.set(bs, []);
      sets.get(bs).push(p);
    }
    const datasets = scatterSets(groups, (pts) => RUN_STYLES[(pts[0].run - 1) % RUN_STYLES.length]);
    for (const [bs, pts] of sets) {
      const front = [];
      let best = -Infinity;
      for (const p of pts.slice().sort((a, b) => b.x - a.x || b.y - a.y))
        if (p.y > best) {
          front.push({ x: p.x, y: p.y });
          best = p.y;
        }
      datasets.push({ label: 'front: ' + bs, data: front, showLine: true, borderDash: [4, 3], borderColor: '#444',
                      borderWidth: 1, pointRadius: 0, fill: false, guide: true });
    }
    draw('ratio', { type: 'scatter', data: { datasets },
                    options: baseOptions(S.dir + ' MB/s (median, log)', 'stored ratio', 'logarithmic', 'linear') });
  }
  // Space saving against block size (the survey's Fig. 3): every block size, whatever the
  // block selector says; sources and layouts selected are pooled (sum in / sum stored).
  function savingChart() {
    const sel = cells.filter((r) => r.m.ok && !r.m.ref && (S.source === 'all' || r.source === S.source) &&
        (S.layout === 'all' || r.layout === S.layout) && (S.family === 'all' || r.m.codec === S.family));
    const sizes = uniq(sel.map((r) => Number(r.block_size))).sort((a, b) => a - b);
    const acc = new Map();
    for (const r of sel) {
      const name = r.label + runTag(r.run);
      if (!acc.has(name)) acc.set(name, new Map());
      const m = acc.get(name), b = Number(r.block_size);
      const a = m.get(b) || { input: 0, stored: 0 };
      a.input += r.m.input;
      a.stored += r.m.stored;
      m.set(b, a);
    }
    const datasets = [...acc.entries()].map(([name, m], i) => ({
      label: name, borderColor: color(i), backgroundColor: color(i), spanGaps: true, pointRadius: 3,
      data: sizes.map((b) => (m.has(b) ? 100 * (1 - m.get(b).stored / m.get(b).input) : null)),
    }));
    draw('saving', { type: 'line', data: { labels: sizes.map(bytes), datasets },
                     options: baseOptions('block size', 'space saving % (stored bytes)', 'category', 'linear') });
  }
  // Tails per codec: the intrinsic worst block (every cell has one) and p99.9 where every cell
  // of the codec timed enough calls for it; the worst over the selected block sets.
  function tailsChart(sel) {
    const wbKey = S.dir === 'compress' ? 'c_wb' : 'd_wb', pKey = S.dir === 'compress' ? 'c_p999' : 'd_p999';
    const runs = uniq(sel.map((r) => r.run)).sort();
    const labels = uniq(sel.map((r) => r.label)).sort();
    const datasets = [];
    runs.forEach((run, ri) => {
      const wb = labels.map(() => null), p = labels.map(() => null), missing = labels.map(() => false);
      for (const r of sel) {
        if (r.run !== run) continue;
        const i = labels.indexOf(r.label);
        if (r.m[wbKey] > 0) wb[i] = Math.max(wb[i] || 0, r.m[wbKey]);
        if (r.m[pKey] === null) missing[i] = true;
        else p[i] = Math.max(p[i] || 0, r.m[pKey]);
      }
      datasets.push({ label: 'intrinsic worst block µs' + runTag(run), data: wb, backgroundColor: color(2 * ri) });
      datasets.push({ label: 'p99.9 µs (≥ 1,000 calls)' + runTag(run), data: p.map((v, i) => (missing[i] ? null : v)),
                      backgroundColor: color(2 * ri + 1) });
    });
    draw('tails', { type: 'bar', data: { labels, datasets },
                    options: baseOptions('codec', S.dir + ' µs per call (log)', 'category', 'logarithmic') });
  }
  function dictChart(sel) {
    const groups = new Map();
    for (const r of sel) {
      if (r.m.dict_gain === null) continue;
      const name = r.label.replace(/:dict=[^ ]*/, '') + ' ' + bytes(r.block_size) + runTag(r.run);
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name).push({ x: r.m.dict, y: r.m.dict_gain, run: r.run,
                              tip: tip(r) + ' | dictionary ' + bytes(r.m.dict) + ', gain x' + fmt(r.m.dict_gain) });
    }
    const datasets = scatterSets(groups, (pts) => RUN_STYLES[(pts[0].run - 1) % RUN_STYLES.length]);
    for (const d of datasets) d.showLine = true;
    const xs = [].concat(...datasets.map((d) => d.data.map((p) => p.x)));
    if (xs.length)
      datasets.push({ label: 'gain 1 (below: a loss)', data: [{ x: Math.min(...xs), y: 1 }, { x: Math.max(...xs), y: 1 }],
                      showLine: true, borderColor: '#999', borderDash: [2, 2], pointRadius: 0, guide: true });
    draw('dict', { type: 'scatter', data: { datasets },
                   options: baseOptions('dictionary bytes (log)', 'net gain: stored bytes without / with', 'logarithmic',
                                        'linear') });
  }
  // I/O model: read one block from each device and decompress it, as a speedup over reading
  // it uncompressed (geometric mean over the selected block sets).
  function ioChart(sel) {
    const ids = new Set(sel.map((r) => r.run + '|' + r.id));
    const rows = D.io.filter((r) => ids.has(r.run + '|' + r.id));
    const labels = uniq(rows.map((r) => r.label + runTag(r.run))).sort();
    const devices = uniq(rows.map((r) => r.device));
    const datasets = devices.map((dev, i) => ({
      label: dev, backgroundColor: color(i),
      data: labels.map((l) => {
        const v = rows.filter((r) => r.device === dev && r.label + runTag(r.run) === l && r.speedup > 0);
        return v.length ? Math.exp(v.reduce((s, r) => s + Math.log(r.speedup), 0) / v.length) : null;
      }),
    }));
    draw('io', { type: 'bar', data: { labels, datasets },
                 options: baseOptions('codec', 'read+decompress speedup vs raw read (>1: codec wins)', 'category',
                                      'logarithmic') });
  }

  // --- tables ---------------------------------------------------------------------------------
  function table(parent, cols, rows, opts) {
    parent.textContent = '';
    const t = h('table', null, parent);
    const tr = h('tr', null, h('thead', null, t));
    const tbody = h('tbody', null, t);
    let sortCol = -1, asc = true;
    function render() {
      tbody.textContent = '';
      const f = opts && opts.filter ? opts.filter.value.toLowerCase() : '';
      let rs = rows.filter((r) => !f || cols.map((c) => String(r[c.k] ?? '')).join(' ').toLowerCase().includes(f));
      if (sortCol >= 0) {
        const k = cols[sortCol].k;
        rs = rs.slice().sort((a, b) => {
          const x = a[k], y = b[k];
          if (x === y) return 0;
          if (x === null || x === undefined) return 1;
          if (y === null || y === undefined) return -1;
          return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) *
                 (asc ? 1 : -1);
        });
      }
      for (const r of rs) {
        const row = h('tr', null, tbody);
        for (const c of cols) {
          const td = h('td', c.f ? c.f(r[c.k]) : fmt(r[c.k]), row);
          if (typeof r[c.k] === 'number') td.className = 'num';
          if (c.cls) td.classList.add(c.cls(r));
          if (String(r[c.k]).startsWith('FAILED')) td.className = 'fail';
        }
      }
      if (opts && opts.count) opts.count.textContent = rs.length + ' of ' + rows.length + ' rows';
    }
    cols.forEach((c, i) => {
      const th = h('th', c.t, tr);
      th.addEventListener('click', () => {
        asc = sortCol === i ? !asc : true;
        sortCol = i;
        render();
      });
    });
    if (opts && opts.filter) opts.filter.oninput = render;
    render();
  }
  function drawCells() {
    const cols = D.cell_columns.map((c) => (c.bytes ? { k: c.k, t: c.t, f: bytes } : { k: c.k, t: c.t }));
    const rows = cells.filter((r) => inSet(r) && (S.family === 'all' || r.m.codec === S.family));
    table(document.getElementById('cells'), cols, rows,
          { filter: document.getElementById('filter'), count: document.getElementById('count') });
  }
  // The cost model (--workload): per workload group, every candidate ranked by $/month.
  function drawCost() {
    if (!D.cost) return;
    const box = document.getElementById('cost');
    box.hidden = false;
    h('p', 'Monthly cost: ' + D.cost.workload + '. Storage: one month of writes as stored; CPU: cores to ' +
      'compress the writes and decompress the reads at this run\'s median speeds.', box, 'note');
    const money = (v) => (v === null || v === undefined ? '' : '$' + v.toFixed(2));
    for (const g of D.cost.groups) {
      h('h3', g.group, box);
      table(h('div', null, box), [{ k: 'codec', t: 'codec' }, { k: 'total', t: 'total $/month', f: money },
                                  { k: 'storage', t: 'storage $', f: money }, { k: 'stored_gb', t: 'stored GB' },
                                  { k: 'cpu', t: 'CPU $', f: money }, { k: 'cores', t: 'cores' },
                                  { k: 'device_load', t: 'device load %' }], g.rows);
    }
  }
  function drawCompare() {
    if (!D.compare) return;
    const box = document.getElementById('compare');
    box.hidden = false;
    h('p', D.compare.summary, box, D.compare.exit_code === 0 ? 'verdict pass' : 'verdict fail');
    const pct = (v) => (v === null || v === undefined ? '' : (v > 0 ? '+' : '') + v.toFixed(1) + ' %');
    const arrow = (a, b) => (r) => (r[a] === null ? '' : fmt(r[a]) + ' → ' + fmt(r[b]));
    const rows = D.compare.rows.map((r) => Object.assign({}, r, { ratio: arrow('ratio_base', 'ratio_new')(r),
                                                                  worst: arrow('worst_block_base', 'worst_block_new')(r) }));
    const status = (r) => 'st-' + r.status.toLowerCase();
    table(h('div', null, box), [{ k: 'id', t: 'cell' }, { k: 'status', t: 'verdict', cls: status },
                                { k: 'size', t: 'stored bytes' }, { k: 'ratio', t: 'ratio' },
                                { k: 'compress', t: 'compress speed', f: pct },
                                { k: 'decompress', t: 'decompress speed', f: pct },
                                { k: 'worst', t: 'worst block µs' }, { k: 'note', t: 'note' }], rows);
  }
  function drawStatic() {
    const meta = document.getElementById('meta');
    D.runs.forEach((m, i) => {
      if (multiRun) h('h3', 'Run ' + (i + 1), meta);
      const t = h('table', null, meta, 'meta');
      for (const k in m) {
        const tr = h('tr', null, t);
        h('th', k, tr);
        h('td', Array.isArray(m[k]) ? m[k].join('; ') : String(m[k]), tr);
      }
    });
    table(document.getElementById('stalls'), D.stalls.columns, D.stalls.rows);
    const rec = document.getElementById('recs');
    for (const g of D.recommendations) {
      h('h3', g.group, rec);
      table(h('div', null, rec), [{ k: 'workload', t: 'workload' }, { k: 'choice', t: 'choice' }, { k: 'rule', t: 'rule' },
                                  { k: 'why', t: 'figures behind it' }], g.picks);
    }
    h('p', 'Devices: ' + D.devices.join('; ') + '. Effective time = latency + stored bytes / bandwidth + block / ' +
      'decompress speed.', document.getElementById('io-note'), 'note');
    table(document.getElementById('io'), [{ k: 'cell', t: 'cell' }, { k: 'device', t: 'device' },
                                           { k: 'raw_us', t: 'raw read us' },
                                           { k: 'effective_us', t: 'read+decompress us' },
                                           { k: 'speedup', t: 'speedup' }], D.io,
          { filter: document.getElementById('io-filter') });
    if (D.stores.length) {
      const st = document.getElementById('stores');
      h('h2', 'Store profiles', st);
      table(h('div', null, st), [{ k: 'profile', t: 'store' }, { k: 'codec', t: 'codec' },
                                 { k: 'stored_bytes', t: 'stored bytes' }, { k: 'stored_ratio', t: 'stored ratio' },
                                 { k: 'c_mbps', t: 'compress MB/s' }, { k: 'd_mbps', t: 'decompress MB/s' },
                                 { k: 'worst_us', t: 'worst call us' }], D.stores);
    }
  }
  function redraw() {
    const sel = selected();
    drawAnswer();
    ratioChart(sel);
    savingChart();
    tailsChart(sel);
    dictChart(sel);
    ioChart(sel);
    drawCells();
    document.body.dataset.selected = sel.length;
  }

  try {
    readHash();
    drawControls();
    drawStatic();
    drawCost();
    drawCompare();
    redraw();
    document.body.dataset.answerTop = Math.round(document.getElementById('answer').getBoundingClientRect().top);
    document.body.dataset.status = 'ok';
  } catch (e) {
    document.body.dataset.status = 'error';
    console.error('kvzbench report: ' + e.message);
  }
})();
