// kvzbench's HTML report: the answer first, then charts and tables, all filtered by one set
// of selectors (also read from the URL hash: #source=twitter.json&block=16384&store=rocksdb).
// Charts are drawn with Chart.js 3.9 (inlined from Debian's libjs-chart.js). The data blob is
// written by report/html_data.cpp; each chart box records what it drew (data-points,
// data-series, data-legend) for the headless-browser test.
// The three script files (report.js, charts.js, tables.js) are one function's body:
// report/html/embed.cmake wraps them, in that order, in one strict-mode closure.
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
  // The page opens on the answer pooled over every source, the console's and the Markdown's;
  // a source chosen shows that source's own picks.
  const S = { store: D.answer.default_store, source: 'all', block: 'all', layout: 'all',
              dir: 'decompress', family: 'all' };
  const CHOICES = {
    store: D.answer.stores,
    source: ['all'].concat(sources),
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
  // The pick, and a tie chain collapsed to "+N tied" that opens on a click: a long one would
  // push the configuration line off the screen.
  function choiceCell(p, tr) {
    const td = h('td', null, tr, 'choice');
    if (!p.ties || !p.ties.length) {
      td.textContent = p.choice;
      return;
    }
    const more = h('details', null, td, 'ties');
    h('summary', p.pick + ' +' + p.ties.length + ' tied', more);
    h('div', p.choice, more, 'chain');
  }
  // A line may break only between its options (after ';' or ','): <wbr> adds no character, so
  // the line copies whole.
  function configCell(p, tr) {
    const cfg = h('td', null, tr, 'config');
    if (p.config === undefined) {
      h('span', S.store === 'any' ? 'choose a store for its configuration line' : '', cfg, 'note');
    } else if (!p.writable) {
      h('span', p.config, cfg, 'note');
    } else {
      const code = h('code', null, cfg);
      for (const part of p.config.split(/(?<=[;,])/)) {
        code.appendChild(document.createTextNode(part));
        h('wbr', null, code);
      }
    }
  }
  function groupCell(g, tr, rows) {
    const where = (g.source === null ? 'all sources' : g.source) + ' · ' + bytes(g.block) + ' ' + g.layout;
    const td = h('td', where + (g.profile ? ' (' + g.profile + ')' : '') + runTag(g.run), tr, 'group');
    if (g.file) h('div', g.file, td, 'note');  // a store file's own blocks: its codec and bytes
    td.rowSpan = rows;
  }
  function drawAnswer() {
    const box = document.getElementById('answer-body');
    box.textContent = '';
    const groups = D.answer.groups.filter((g) => (S.source === 'all' ? g.source === null : g.source === S.source) &&
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
        if (i === 0) groupCell(g, tr, picks.length);
        h('td', p.workload, tr);
        choiceCell(p, tr);
        const why = h('td', p.why, tr, 'why');
        if (p.switch) h('div', p.switch, why, 'switch');
        configCell(p, tr);
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
  // Where the answer's configuration lines end, for the headless test at 1280 px: the right
  // edge of the widest, and the page's own width (no horizontal scroll).
  function measureAnswer() {
    let right = 0;
    for (const c of document.querySelectorAll('#answer td.config')) right = Math.max(right, c.getBoundingClientRect().right);
    document.body.dataset.configRight = Math.round(right);
    document.body.dataset.pageWidth = document.documentElement.scrollWidth;
  }

  // --- charts -------------------------------------------------------------------------------
  const charts = {};
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
    measureAnswer();
    document.body.dataset.status = 'ok';
  } catch (e) {
    document.body.dataset.status = 'error';
    console.error('kvzbench report: ' + e.message);
  }
