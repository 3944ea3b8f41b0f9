import { jsonl } from '../helpers.js';

/** Planted secrets: every one must be gone from the sealed file and its checkpoint. */
export const PLANTED = {
  aws: 'AKIAIOSFODNN7EXAMPLE',
  github: `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`,
  password: 'hunter2-correct-horse',
  bearer: 'tok3nValue9876543210abcdef',
  inner: 'innerS3cretValue42',
};

export const PLANTED_TRACE = jsonl(
  { kind: 'tool_call', run_id: 'r1', call_id: 'c1', tool: 'deploy', args: { key_id: PLANTED.aws, headers: { Authorization: `Bearer ${PLANTED.bearer}` } } },
  { kind: 'tool_result', run_id: 'r1', call_id: 'c1', content: `pushed with ${PLANTED.github}` },
  { kind: 'tool_call', run_id: 'r1', call_id: 'c2', tool: 'login', args: { user: 'ann', password: PLANTED.password } },
  { kind: 'tool_result', run_id: 'r1', call_id: 'c2', content: JSON.stringify({ ok: true, client_secret: PLANTED.inner }) },
);
