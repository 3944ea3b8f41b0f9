/** The second part of the report page's script (page-script.ts): the run timelines on a canvas, and the start. */
export const TIMELINE_SCRIPT = String.raw`  // Timelines: one canvas, the selected run, runs worst first.
  var runSel = $('run-select'), canvas = $('timeline'), current = -1, mark = -1;
  D.runs.forEach(function (r, k) {
    var c = r.counts;
    var o = el('option', null, runName(r) + '  (' + c.error + ' E, ' + c.warning + ' W, ' + c.note + ' N)');
    o.value = String(k);
    runSel.appendChild(o);
  });
  runSel.addEventListener('change', function () { showRun(+runSel.value, -1); });
  var LANE = 20, GUTTER = 170, MAX_LANES = 300, STRIDE = 6;
  function colour(flags) {
    if (flags & 8) return '#c62828';
    if (flags & 2) return '#e53935';
    if (flags & 4) return '#ef6c00';
    if (flags & 1) return '#78909c';
    return '#2e7d32';
  }
  function geometry(r) {
    var width = Math.max(600, canvas.parentElement.clientWidth - 4);
    var lanes = Math.min(r.lanes.length, MAX_LANES);
    var scale = (width - GUTTER - 10) / Math.max(r.end, 1);
    return { width: width, height: (lanes + 1) * LANE + 8, lanes: lanes, scale: scale };
  }
  function showRun(k, line) {
    current = k; mark = line;
    var r = D.runs[k];
    if (!r) return;
    var note = r.timed ? 'Time axis: milliseconds from the run\u2019s first record (run length ' + r.end + ' ms).'
      : 'This run has records without timestamps: it is drawn by record order, not by time.';
    if (r.truncated > 0) note += ' ' + r.truncated + ' bar(s) beyond the cap are not drawn.';
    if (r.lanes.length > MAX_LANES) note += ' Only the first ' + MAX_LANES + ' of ' + r.lanes.length + ' lanes are drawn.';
    $('timeline-note').textContent = note;
    var g = geometry(r), ratio = window.devicePixelRatio || 1;
    canvas.width = g.width * ratio; canvas.height = g.height * ratio;
    canvas.style.width = g.width + 'px'; canvas.style.height = g.height + 'px';
    var ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, g.width, g.height);
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    for (var l = 0; l < g.lanes; l++) {
      if (l % 2 === 0) { ctx.fillStyle = '#f5f7fa'; ctx.fillRect(0, LANE + l * LANE, g.width, LANE); }
      ctx.fillStyle = '#263238';
      var name = r.lanes[l];
      ctx.fillText(name.length > 24 ? name.slice(0, 23) + '\u2026' : name, 6, LANE + l * LANE + LANE / 2);
    }
    ctx.fillStyle = '#546e7a';
    ctx.fillText(r.timed ? '0 ms' : 'record 0', GUTTER, LANE / 2);
    var endLabel = r.timed ? r.end + ' ms' : 'record ' + r.end;
    ctx.fillText(endLabel, g.width - 10 - ctx.measureText(endLabel).width, LANE / 2);
    var b = r.bars, x0 = GUTTER, storms = new Map();
    for (var j = 0; j < b.length; j += STRIDE) {
      var lane = b[j], flags = b[j + 4];
      if (lane >= g.lanes) continue;
      var start = b[j + 1], end = b[j + 2] < 0 ? r.end : b[j + 2];
      var x = x0 + start * g.scale, w = Math.max(2, (end - start) * g.scale), y = LANE + lane * LANE + 3;
      ctx.fillStyle = colour(flags);
      ctx.globalAlpha = flags & 8 ? 0.45 : 1;
      ctx.fillRect(x, y, w, LANE - 6);
      ctx.globalAlpha = 1;
      if (flags & 16) { ctx.strokeStyle = '#6a1b9a'; ctx.lineWidth = 2; ctx.strokeRect(x, y - 1, w, LANE - 4); }
      if (flags & 8) { ctx.fillStyle = '#c62828'; ctx.fillText('\u2192 no result', Math.min(x + 4, g.width - 80), y + (LANE - 6) / 2); }
      if (b[j + 3] === mark) { ctx.strokeStyle = '#000'; ctx.lineWidth = 2; ctx.strokeRect(x - 2, y - 2, w + 4, LANE - 2); }
      var sg = b[j + 5];
      if (sg > 0) {
        var group = storms.get(sg);
        if (!group) storms.set(sg, group = { lane: lane, x1: x, x2: x + w, n: 0 });
        group.x1 = Math.min(group.x1, x); group.x2 = Math.max(group.x2, x + w); group.n++;
      }
    }
    // Retry storms grouped: one bracket under each group's calls, with its size.
    storms.forEach(function (group) {
      var yb = LANE + group.lane * LANE + LANE - 2;
      ctx.strokeStyle = '#6a1b9a'; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(group.x1, yb - 3); ctx.lineTo(group.x1, yb); ctx.lineTo(group.x2, yb); ctx.lineTo(group.x2, yb - 3); ctx.stroke();
      ctx.fillStyle = '#6a1b9a';
      ctx.fillText('retry storm \u00d7' + group.n, Math.min(group.x2 + 6, g.width - 110), LANE + group.lane * LANE + LANE / 2);
    });
  }
  canvas.addEventListener('click', function (ev) {
    var r = D.runs[current];
    if (!r) return;
    var g = geometry(r), rect = canvas.getBoundingClientRect();
    var lane = Math.floor((ev.clientY - rect.top - LANE) / LANE), t = (ev.clientX - rect.left - GUTTER) / g.scale;
    var best = -1, dist = Infinity;
    for (var j = 0; j < r.bars.length; j += STRIDE) {
      if (r.bars[j] !== lane) continue;
      var start = r.bars[j + 1], end = r.bars[j + 2] < 0 ? r.end : r.bars[j + 2];
      var d = t < start ? start - t : t > end ? t - end : 0;
      if (d < dist) { dist = d; best = j; }
    }
    var out = $('bar-detail');
    if (best < 0) { out.textContent = ''; return; }
    var f = r.bars[best + 4], what = f & 1 ? 'llm span' : f & 8 ? 'call with no result (orphan)' : f & 2 ? 'call, error result' : 'call';
    if (f & 4) what += ', over its deadline';
    if (f & 16) what += ', part of a retry storm';
    var id = r.callIds[best / STRIDE];
    out.textContent = r.lanes[lane] + ' \u00b7 ' + what + ' \u00b7 ' + loc(r.file, r.bars[best + 3]) + (id ? ' \u00b7 call ' + id : '') +
      ' \u00b7 ' + (r.timed ? r.bars[best + 1] + ' ms' : 'record ' + r.bars[best + 1]);
    mark = r.bars[best + 3];
    showRun(current, mark);
  });
  if (D.runs.length === 0) $('timeline-note').textContent = 'No run timelines in this report (a merged report carries none).';
  window.addEventListener('resize', function () { if (current >= 0) showRun(current, mark); });

  applyFilters();
  if (D.runs.length > 0) showRun(0, -1);
  document.body.dataset.ready = '1';
})();
`;
