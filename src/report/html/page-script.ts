/**
 * The report page's script (plain ES2020, inlined). It reads the embedded
 * JSON, builds every element with createElement/textContent (never innerHTML),
 * lists findings in a virtualized list and draws the run timeline on a canvas,
 * so 100,000 findings and 50,000 calls stay responsive. The page's CSP allows
 * only this script (by hash), so nothing in the data could run even if it got out.
 */
export const PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('report-data').textContent);
  var F = D.findings, S = D.strings, N = F.rule.length;
  var SEV = ['error', 'warning', 'note'];
  var ROW = 24;
  var $ = function (id) { return document.getElementById(id); };
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function loc(file, line) { return line > 0 ? file + ':' + line : file; }
  // The list's location column fits LOC_CHARS: cut from the left, keeping file:line whole
  // (the rule of shortLocation in src/report/triage.ts, which the text report uses).
  var LOC_CHARS = 30;
  function shortLoc(s) {
    var chars = Array.from(s);
    if (chars.length <= LOC_CHARS) return s;
    var name = Array.from(s.slice(s.lastIndexOf('/') + 1));
    var keep = Math.max(LOC_CHARS - 1, name.length + 1);
    if (keep >= chars.length) return s;
    var tail = chars.slice(chars.length - keep).join('');
    var b = tail.indexOf('/');
    if (chars[chars.length - keep - 1] !== '/' && b > 0 && Array.from(tail.slice(b)).length >= name.length) tail = tail.slice(b);
    return '\u2026' + tail;
  }
  function runName(r) { return r.file + (r.runId === null ? '' : ' \u00b7 run ' + r.runId); }

  // Summary.
  var s = D.summary;
  $('count-error').textContent = String(s.findings.error);
  $('count-warning').textContent = String(s.findings.warning);
  $('count-note').textContent = String(s.findings.note);
  $('count-files').textContent = String(s.files);
  $('count-runs').textContent = String(s.runs);
  $('count-calls').textContent = String(s.toolCalls);
  $('version').textContent = D.version;
  if (D.runsNote) $('runs-note').textContent = D.runsNote;

  // Triage table: one row per rule that fired.
  // Counted over the whole report: the page may hold only the most severe findings.
  var perRule = D.ruleTotals;
  var ruleInfo = new Map();
  D.rules.forEach(function (r) { ruleInfo.set(r.id, r); });
  var triage = $('triage-body');
  var order = S.rules.map(function (_, k) { return k; }).sort(function (a, b) {
    var ra = ruleInfo.get(S.rules[a]), rb = ruleInfo.get(S.rules[b]);
    var sa = ra ? SEV.indexOf(ra.severity) : 3, sb = rb ? SEV.indexOf(rb.severity) : 3;
    return sa - sb || perRule[b] - perRule[a] || (S.rules[a] < S.rules[b] ? -1 : 1);
  });
  order.forEach(function (k) {
    var info = ruleInfo.get(S.rules[k]) || { severity: '', likelyCause: '', nextAction: '' };
    var tr = el('tr');
    var sev = el('td'); sev.appendChild(el('span', 'sev sev-' + info.severity, info.severity)); tr.appendChild(sev);
    tr.appendChild(el('td', 'mono', S.rules[k]));
    tr.appendChild(el('td', 'num', perRule[k]));
    tr.appendChild(el('td', null, info.likelyCause));
    tr.appendChild(el('td', null, info.nextAction));
    tr.addEventListener('click', function () { $('f-rule').value = String(k); applyFilters(); });
    triage.appendChild(tr);
  });
  if (N === 0) $('triage').appendChild(el('p', 'muted', 'No findings.'));

  // Filters.
  function fill(id, values) {
    var sel = $(id);
    values.forEach(function (v) { var o = el('option', null, v[1]); o.value = String(v[0]); sel.appendChild(o); });
    sel.addEventListener('change', applyFilters);
  }
  function sortedTable(list) { return list.map(function (v, k) { return [k, v]; }).sort(function (a, b) { return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0; }); }
  fill('f-rule', sortedTable(S.rules));
  fill('f-severity', SEV.map(function (v, k) { return [k, v]; }));
  fill('f-tool', sortedTable(S.tools));
  fill('f-file', sortedTable(S.files));
  var shown = new Int32Array(N), shownCount = 0;
  function applyFilters() {
    var r = +$('f-rule').value, sv = +$('f-severity').value, t = +$('f-tool').value, f = +$('f-file').value;
    var n = 0;
    for (var i = 0; i < N; i++) {
      if (r >= 0 && F.rule[i] !== r) continue;
      if (sv >= 0 && F.severity[i] !== sv) continue;
      if (t >= 0 && F.tool[i] !== t) continue;
      if (f >= 0 && F.file[i] !== f) continue;
      shown[n++] = i;
    }
    shownCount = n;
    $('shown-count').textContent = n + ' of ' + N + ' finding(s)' + (D.omitted > 0 ? '; ' + D.omitted + ' less severe finding(s) are only in report.json' : '');
    $('spacer').style.height = n * ROW + 'px';
    $('list').scrollTop = 0;
    drawRows();
  }
  $('f-clear').addEventListener('click', function () {
    ['f-rule', 'f-severity', 'f-tool', 'f-file'].forEach(function (id) { $(id).value = '-1'; });
    applyFilters();
  });

  // Virtualized findings list: only the rows in view exist.
  var list = $('list'), rows = $('rows'), selected = -1;
  function drawRows() {
    var first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
    var last = Math.min(shownCount, first + Math.ceil(list.clientHeight / ROW) + 10);
    rows.textContent = '';
    rows.style.transform = 'translateY(' + first * ROW + 'px)';
    for (var k = first; k < last; k++) {
      var i = shown[k];
      var row = el('div', 'row' + (i === selected ? ' selected' : ''));
      row.dataset.index = String(i);
      row.appendChild(el('span', 'sev sev-' + SEV[F.severity[i]], SEV[F.severity[i]]));
      row.appendChild(el('span', 'rule mono', S.rules[F.rule[i]]));
      var where = loc(S.files[F.file[i]], F.line[i]);
      var cell = el('span', 'loc mono', shortLoc(where));
      cell.title = where;
      row.appendChild(cell);
      row.appendChild(el('span', 'msg', F.message[i]));
      rows.appendChild(row);
    }
  }
  list.addEventListener('scroll', function () { window.requestAnimationFrame(drawRows); });
  rows.addEventListener('click', function (ev) {
    var row = ev.target.closest('.row');
    if (row) showFinding(+row.dataset.index);
  });

  function field(parent, name, value, mono) {
    if (value === null || value === undefined || value === '') return;
    var dt = el('dt', null, name), dd = el('dd', mono ? 'mono' : null, value);
    parent.appendChild(dt); parent.appendChild(dd);
  }
  function showFinding(i) {
    selected = i;
    drawRows();
    var box = $('detail');
    box.textContent = '';
    var info = ruleInfo.get(S.rules[F.rule[i]]) || {};
    box.appendChild(el('h3', 'mono', S.rules[F.rule[i]]));
    var dl = el('dl');
    field(dl, 'Severity', SEV[F.severity[i]]);
    field(dl, 'Location', loc(S.files[F.file[i]], F.line[i]), true);
    field(dl, 'Run', F.runId[i], true);
    field(dl, 'Call id', F.callId[i], true);
    field(dl, 'Tool', F.tool[i] >= 0 ? S.tools[F.tool[i]] : null, true);
    field(dl, 'Excerpt', F.message[i]);
    field(dl, 'What it finds', info.summary);
    field(dl, 'Likely cause', info.likelyCause);
    field(dl, 'Next action', info.nextAction);
    box.appendChild(dl);
    if (F.run[i] >= 0) { $('run-select').value = String(F.run[i]); showRun(F.run[i], F.line[i]); }
  }

  // Timelines: one canvas, the selected run, runs worst first.
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
