/**
 * Which hop changed a tool result, from the hashes and byte lengths taken at
 * the three boundaries: the tool process's raw output, the adapter's output
 * (parsed, wrapped, redacted) and the fragment the prompt builder put in the
 * next model message. Pure: the hop table in one place.
 *
 * | process vs adapter hash | adapter vs model hash | lengths                        | hop                  | owner              |
 * |-------------------------|-----------------------|--------------------------------|----------------------|--------------------|
 * | differ                  | any                   | adapter < process              | adapter_shrink       | adapter author     |
 * | differ                  | any                   | adapter > process              | adapter_grow         | adapter author     |
 * | equal                   | differ                | model > adapter                | prompt_builder_wrap  | prompt author      |
 * | equal                   | differ                | model < adapter                | prompt_builder_drop  | prompt author      |
 * | equal                   | equal                 | all three equal                | no_payload_mutation  | nobody             |
 * | equal                   | equal                 | not all equal                  | hash_slice_mismatch  | observability code |
 * | differ                  | any                   | adapter = process              | needs_manual_review  | adapter author     |
 * | equal                   | differ                | model = adapter                | needs_manual_review  | prompt author      |
 */

export const MUTATION_HOPS = [
  'adapter_shrink',
  'adapter_grow',
  'prompt_builder_wrap',
  'prompt_builder_drop',
  'no_payload_mutation',
  'hash_slice_mismatch',
  'needs_manual_review',
] as const;
export type MutationHop = (typeof MUTATION_HOPS)[number];

export type HopOwner = 'adapter author' | 'prompt author' | 'observability code' | 'nobody';

export interface BoundaryDigests {
  readonly processSha256: string;
  readonly adapterSha256: string;
  readonly modelSha256: string;
  readonly processLen: number;
  readonly adapterLen: number;
  readonly modelLen: number;
}

export interface HopVerdict {
  readonly hop: MutationHop;
  readonly owner: HopOwner;
}

/** Hashes compare case-insensitively (hex digests are written both ways). */
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function classifyHop(d: BoundaryDigests): HopVerdict {
  const pa = same(d.processSha256, d.adapterSha256);
  const am = same(d.adapterSha256, d.modelSha256);
  if (!pa) {
    if (d.adapterLen < d.processLen) return { hop: 'adapter_shrink', owner: 'adapter author' };
    if (d.adapterLen > d.processLen) return { hop: 'adapter_grow', owner: 'adapter author' };
    // Same length, other bytes: key order, a same-length redaction, an encoding change.
    return { hop: 'needs_manual_review', owner: 'adapter author' };
  }
  if (!am) {
    if (d.modelLen > d.adapterLen) return { hop: 'prompt_builder_wrap', owner: 'prompt author' };
    if (d.modelLen < d.adapterLen) return { hop: 'prompt_builder_drop', owner: 'prompt author' };
    return { hop: 'needs_manual_review', owner: 'prompt author' };
  }
  if (d.processLen === d.adapterLen && d.adapterLen === d.modelLen) return { hop: 'no_payload_mutation', owner: 'nobody' };
  // Equal hashes over unequal lengths: the hashes were taken over other byte ranges than the lengths.
  return { hop: 'hash_slice_mismatch', owner: 'observability code' };
}

export function isMutationHop(label: string): label is MutationHop {
  return (MUTATION_HOPS as readonly string[]).includes(label);
}
