import { expect, it } from 'vitest';
import { describeCorpus } from '../../public-corpus.js';
import { auditCorpus } from '../corpus.js';
import { factsOf } from './run-facts.js';

// Counts established by reading the files (see the comments); the files are
// from agentevals-dev/agentevals (test/fixtures/public-corpus.json).

describeCorpus('OTel corpus: Tempo batches (otlp/agentevals-tempo-batches.json)', ['otlp/agentevals-tempo-batches.json'], () => {
  // One line, {"batches":[…]} with instrumentationLibrarySpans, 86 spans of one trace.
  // Model requests: 2 ADK call_llm spans, each wrapping generate_content and openai.chat
  // (nested model spans count once). The first asks for helm_list_releases
  // (call_w0eKlvnaE7S9GQJeSSs0gn05, in gcp.vertex.agent.llm_response and gen_ai.completion.0.tool_calls.0);
  // the execute_tool span with gen_ai.tool.call.id runs it (isError false in its MCP response);
  // the second request carries it again as history (gen_ai.prompt.2/3, function_call/function_response).
  // Catalog: 10 function_declarations in llm_request (also llm.request.functions.0-9).
  const file = 'otlp/agentevals-tempo-batches.json';

  it('reads one run with 2 model requests, 1 call, 1 result, a 10-tool catalog', async () => {
    const { result, runs } = await auditCorpus([file]);
    expect(result.files).toEqual([{ path: file, format: 'otlp-json', records: 5, runs: 1, skipped: [], toolCalls: 1, toolResults: 1 }]);
    expect(runs.map(factsOf)).toEqual([
      {
        runId: 'dd547580319ab0312cee07f1def50dad',
        format: 'otlp-json',
        llm: 2,
        calls: [[1, 'call_w0eKlvnaE7S9GQJeSSs0gn05', 'helm_list_releases']],
        results: [[1, 'call_w0eKlvnaE7S9GQJeSSs0gn05', 'helm_list_releases', false]],
        catalogs: [
          [
            'helm_get_release',
            'helm_list_releases',
            'helm_repo_add',
            'helm_repo_update',
            'helm_uninstall',
            'helm_upgrade',
            'k8s_apply_manifest',
            'k8s_get_available_api_resources',
            'k8s_get_resources',
            'ask_user',
          ],
        ],
      },
    ]);
    expect(runs[0]!.calls[0]!.args).toEqual({});
    // The file is one line with no newline at all: the engine notes that; no orphan, no unmatched result.
    // The agent called 1 of the 10 tools it was offered: the other 9 are unused (notes, true on this trace).
    const unused = ['ask_user', 'helm_get_release', 'helm_repo_add', 'helm_repo_update', 'helm_uninstall', 'helm_upgrade', 'k8s_apply_manifest', 'k8s_get_available_api_resources', 'k8s_get_resources'];
    expect(result.findings.map((f) => [f.ruleId, f.line, f.tool, f.message])).toEqual([
      ['missing-final-newline', 1, null, 'last record has no final newline'],
      ...unused.map((tool) => ['unused-tool', 1, tool, `tool '${tool}' is in the catalog but the run never called it (1 call to other tools)`]),
    ]);
  });
});

describeCorpus('OTel corpus: Jaeger export (jaeger/agentevals-k8s.json)', ['jaeger/agentevals-k8s.json'], () => {
  // {"data":[one trace, 73 spans]}: one ADK call_llm (spanID 896fc6b7b215e46d, id key on line 2849)
  // wrapping one openai.chat; the model answers in text, no tool call. Catalog: 18 k8s_* tools
  // (llm.request.functions.0-17 and function_declarations). An http GET span has error=true: not a tool.
  const file = 'jaeger/agentevals-k8s.json';

  // startTime 1771237881585997 µs, duration 2108918 µs → 1771237881586 … 1771237883695 ms.
  it('reads one run with 1 model request, no calls, an 18-tool catalog, lines of the span id keys', async () => {
    const { result, runs } = await auditCorpus([file]);
    expect(result.files).toEqual([{ path: file, format: 'jaeger-json', records: 2, runs: 1, skipped: [], toolCalls: 0, toolResults: 0 }]);
    const facts = runs.map(factsOf);
    expect(facts).toEqual([
      {
        runId: 'd497c9dd55717f2c5ecb79bda3028993',
        format: 'jaeger-json',
        llm: 1,
        calls: [],
        results: [],
        catalogs: [
          [
            'k8s_annotate_resource',
            'k8s_apply_manifest',
            'k8s_check_service_connectivity',
            'k8s_create_resource',
            'k8s_create_resource_from_url',
            'k8s_delete_resource',
            'k8s_describe_resource',
            'k8s_execute_command',
            'k8s_get_available_api_resources',
            'k8s_get_cluster_configuration',
            'k8s_get_events',
            'k8s_get_pod_logs',
            'k8s_get_resource_yaml',
            'k8s_get_resources',
            'k8s_label_resource',
            'k8s_patch_resource',
            'k8s_remove_annotation',
            'k8s_remove_label',
          ],
        ],
      },
    ]);
    expect(runs[0]!.llmSpans.map((s) => [s.loc.line, s.spanId, s.ts, s.endTs])).toEqual([[2849, '896fc6b7b215e46d', 1771237881586, 1771237883695]]);
    // The model answered in text: none of the 18 offered tools was called (notes, true on this trace).
    expect(result.findings.map((f) => [f.ruleId, f.severity, f.line, f.tool, f.message])).toEqual([
      ['ingest-note', 'note', 0, null, "the file holds no tool calls ('jaeger-json': no tool call or result read, and no tool-shaped content)"],
      ...facts[0]!.catalogs[0]!.map((tool) => ['unused-tool', 'note', 2849, tool, `tool '${tool}' is in the catalog but the run never called it (no calls at all)`]),
    ]);
  });
});
