import { createHash } from 'node:crypto';
import type { Report } from '../schema.js';
import type { RunTimeline } from '../../model/timeline.js';
import { embedJson, pageData } from './page-data.js';
import { PAGE_SCRIPT } from './page-script.js';

/**
 * The self-contained HTML report: summary, triage table, filters by
 * rule/severity/tool/file, a virtualized findings list with details, and a
 * swimlane timeline per run. No network, works from file://. Trace text never
 * enters the markup: it travels as JSON in a non-executed script element and
 * the page script puts it into the DOM as text. The CSP admits only our own
 * script, by its hash.
 */
export function renderHtml(report: Report, timelines: readonly RunTimeline[] = []): string {
  const scriptHash = createHash('sha256').update(PAGE_SCRIPT, 'utf8').digest('base64');
  const csp = `default-src 'none'; script-src 'sha256-${scriptHash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>agent-trace-audit report</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>agent-trace-audit</h1>
<p class="muted">version <span id="version"></span></p>
</header>
<section id="summary" class="cards">
<div class="card error"><b id="count-error">0</b><span>errors</span></div>
<div class="card warning"><b id="count-warning">0</b><span>warnings</span></div>
<div class="card note"><b id="count-note">0</b><span>notes</span></div>
<div class="card"><b id="count-files">0</b><span>files</span></div>
<div class="card"><b id="count-runs">0</b><span>runs</span></div>
<div class="card"><b id="count-calls">0</b><span>tool calls</span></div>
</section>
<p id="runs-note" class="muted"></p>
<section id="triage">
<h2>Triage</h2>
<table><thead><tr><th></th><th>Finding</th><th>Count</th><th>Likely cause</th><th>Next action</th></tr></thead><tbody id="triage-body"></tbody></table>
</section>
<section id="runs">
<h2>Run timeline</h2>
<div class="controls"><label>Run (worst first) <select id="run-select"></select></label></div>
<p id="timeline-note" class="muted"></p>
<div class="legend"><span class="k llm"></span>llm span <span class="k ok"></span>call to result <span class="k err"></span>error result <span class="k late"></span>over deadline <span class="k open"></span>no result (open to run end) <span class="k storm"></span>retry storm</div>
<div id="timeline-wrap"><canvas id="timeline" width="600" height="40"></canvas></div>
<p id="bar-detail" class="mono"></p>
</section>
<section id="findings">
<h2>Findings</h2>
<div class="controls">
<label>Rule <select id="f-rule"><option value="-1">all</option></select></label>
<label>Severity <select id="f-severity"><option value="-1">all</option></select></label>
<label>Tool <select id="f-tool"><option value="-1">all</option></select></label>
<label>File <select id="f-file"><option value="-1">all</option></select></label>
<button id="f-clear" type="button">Clear</button>
<span id="shown-count" class="muted"></span>
</div>
<div class="split">
<div id="list"><div id="spacer"></div><div id="rows"></div></div>
<aside id="detail"><p class="muted">Click a finding to see its location and excerpt.</p></aside>
</div>
</section>
<script type="application/json" id="report-data">${embedJson(pageData(report, timelines))}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/** The report page's stylesheet (inlined; no web fonts, no external images). */
export const PAGE_STYLE = `
:root { --err: #c62828; --warn: #ef6c00; --note: #1565c0; --ok: #2e7d32; --line: #dfe3e8; }
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 24px 40px; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2933; background: #fff; }
header { display: flex; align-items: baseline; gap: 12px; }
h1 { font-size: 22px; margin: 0 0 8px; }
h2 { font-size: 17px; margin: 24px 0 8px; }
h3 { font-size: 15px; margin: 0 0 8px; }
.muted { color: #616e7c; }
.mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; min-width: 96px; display: flex; flex-direction: column; }
.card b { font-size: 22px; }
.card.error b { color: var(--err); } .card.warning b { color: var(--warn); } .card.note b { color: var(--note); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid var(--line); }
#triage tbody tr { cursor: pointer; } #triage tbody tr:hover { background: #f5f7fa; }
td.num { text-align: right; }
.sev { display: inline-block; min-width: 58px; padding: 0 6px; border-radius: 10px; font-size: 12px; color: #fff; text-align: center; }
.sev-error { background: var(--err); } .sev-warning { background: var(--warn); } .sev-note { background: var(--note); }
.controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin-bottom: 8px; }
select { max-width: 320px; }
#run-select { max-width: 720px; }
.split { display: flex; gap: 12px; align-items: flex-start; }
#list { position: relative; flex: 1 1 60%; height: 420px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
#spacer { width: 1px; }
#rows { position: absolute; top: 0; left: 0; right: 0; }
.row { height: 24px; display: flex; gap: 10px; align-items: center; padding: 0 8px; white-space: nowrap; cursor: pointer; border-bottom: 1px solid #f0f2f5; }
.row:hover { background: #f5f7fa; } .row.selected { background: #e3f2fd; }
.row .rule { width: 190px; overflow: hidden; text-overflow: ellipsis; flex: none; }
.row .loc { width: 31ch; overflow: hidden; text-overflow: ellipsis; flex: none; color: #3e4c59; }
.row .msg { overflow: hidden; text-overflow: ellipsis; }
#detail { flex: 1 1 40%; border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; min-height: 120px; max-height: 420px; overflow: auto; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 10px; margin: 0; }
dt { color: #616e7c; } dd { margin: 0; white-space: pre-wrap; }
#timeline-wrap { max-height: 520px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
canvas { display: block; cursor: crosshair; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; font-size: 12px; margin-bottom: 6px; }
.legend .k { display: inline-block; width: 18px; height: 10px; border-radius: 2px; }
.k.llm { background: #78909c; } .k.ok { background: var(--ok); } .k.err { background: #e53935; } .k.late { background: var(--warn); }
.k.open { background: var(--err); opacity: .45; } .k.storm { border: 2px solid #6a1b9a; }
`;
