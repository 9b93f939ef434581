// The HTML report's charts (one function each), drawn from the selected rows with Chart.js;
// part of the report script's closure (report.js).
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
    box.dataset.kind = config.type;  // "bar" where one block or dictionary size would be one dot a series
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
    const saving = (a) => 100 * (1 - a.stored / a.input);
    if (sizes.length === 1) {
      // One block size: a line per codec would be one dot each; a bar per codec reads.
      const names = [...acc.keys()];
      const datasets = [{ label: 'space saving at ' + bytes(sizes[0]), backgroundColor: color(0),
                          data: names.map((n) => saving(acc.get(n).get(sizes[0]))) }];
      draw('saving', { type: 'bar', data: { labels: names, datasets },
                       options: baseOptions('codec', 'space saving % (stored bytes)', 'category', 'linear') });
      return;
    }
    const datasets = [...acc.entries()].map(([name, m], i) => ({
      label: name, borderColor: color(i), backgroundColor: color(i), spanGaps: true, pointRadius: 3,
      data: sizes.map((b) => (m.has(b) ? saving(m.get(b)) : null)),
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
  // One dictionary size: the gain of each codec and block size as a bar per block set (a log
  // axis over one size draws nothing).
  function dictBars(sel) {
    const names = [], sets = new Map();
    for (const r of sel) {
      if (r.m.dict_gain === null) continue;
      const name = r.label.replace(/:(raw)?dict=[^ ]*/, '') + ' ' + bytes(r.block_size) + runTag(r.run);
      if (!names.includes(name)) names.push(name);
      const set = r.source + ' ' + r.layout + (r.profile ? ' ' + r.profile : '');
      if (!sets.has(set)) sets.set(set, new Map());
      sets.get(set).set(name, r.m.dict_gain);
    }
    const datasets = [...sets.entries()].map(([set, gains], i) => ({
      label: set, backgroundColor: color(i), data: names.map((n) => (gains.has(n) ? gains.get(n) : null)) }));
    draw('dict', { type: 'bar', data: { labels: names, datasets },
                   options: baseOptions('codec and block size', 'net gain: stored bytes without / with (1: even)',
                                        'category', 'linear') });
  }
  function dictChart(sel) {
    const sizes = uniq(sel.filter((r) => r.m.dict_gain !== null).map((r) => r.m.dict));
    if (sizes.length === 1) return dictBars(sel);
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
