// The HTML report's tables: the cells, the cost model, the run comparison and the static
// sections; part of the report script's closure (report.js).
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
                                 { k: 'stored_bytes', t: 'stored bytes' }, { k: 'basis', t: 'stored bytes are' },
                                 { k: 'stored_ratio', t: 'stored ratio' },
                                 { k: 'c_mbps', t: 'compress MB/s' }, { k: 'd_mbps', t: 'decompress MB/s' },
                                 { k: 'worst_us', t: 'worst call us' }], D.stores);
    }
  }
