/**
 * The report page's script (plain ES2020, inlined). It reads the embedded
 * JSON, builds every element with createElement/textContent (never innerHTML),
 * lists findings in a virtualized list and draws the run timeline on a canvas,
 * so 100,000 findings and 50,000 calls stay responsive. The page's CSP allows
 * only this script (by hash), so nothing in the data could run even if it got out.
 */
import { TIMELINE_SCRIPT } from './page-script-timeline.js';

/** The first part of the script: data, filters and the findings list (the timeline part follows). */
const LIST_SCRIPT = String.raw`(function () {
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

`;

export const PAGE_SCRIPT = LIST_SCRIPT + TIMELINE_SCRIPT;
