import { createHash } from 'node:crypto';
import type { Report } from '../schema.js';
import type { RunTimeline } from '../timeline/types.js';
import { embedJson, pageData } from './page-data.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

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
