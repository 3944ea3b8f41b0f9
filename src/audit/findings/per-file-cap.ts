/**
 * The per-file part of the finding caps (finding-caps.ts): each rule lists at most
 * `cap` findings of one file, the first ones in report order, and what it does not
 * list is counted. Report order, not the order the findings were made in: one file's
 * runs may be audited on several threads (the router), and each thread's share of
 * the findings must join into the same listing one thread makes.
 */
import type { Finding } from '../../model/finding.js';
import { compareFindings } from './findings.js';
import type { FindingDraft } from '../rules/rule-types.js';

/** What one rule did not list for one file: how many, and the first of them in report order. Plain data. */
export interface CapOverflow {
  readonly ruleId: string;
  count: number;
  first: Finding;
  firstDraft: FindingDraft;
}

/** A finding with the draft it was made from (the summary of what is not listed is made from a draft). */
export interface CapEntry {
  readonly finding: Finding;
  readonly draft: FindingDraft;
}

/** One file's listed findings and what each rule did not list (sorted by rule id). */
export interface FileCapResult {
  readonly listed: CapEntry[];
  readonly over: CapOverflow[];
}

interface Bucket {
  listed: CapEntry[];
  /** The last listed finding after a trim (a finding past its line is over the cap without being made). */
  max: Finding | null;
  over: CapOverflow | null;
}

export class PerFileCap {
  /** file (as the rules name it) → rule id → bucket. */
  readonly #files = new Map<string, Map<string, Bucket>>();

  constructor(readonly cap: number) {}

  /** Lists or counts a finding; `make` builds it only when it may be listed or be the first one counted. */
  admit(ruleId: string, draft: FindingDraft, make: () => Finding): void {
    const bucket = this.#bucket(draft.loc.file, ruleId);
    if (bucket.max !== null && draft.loc.line > bucket.max.line) {
      const over = bucket.over!;
      over.count += 1;
      if (draft.loc.line <= over.first.line) this.#first(over, make(), draft);
      return;
    }
    this.#list(bucket, ruleId, { finding: make(), draft });
  }

  /** Joins another thread's result for `file` (its listed findings and counts). */
  absorb(file: string, result: FileCapResult): void {
    for (const over of result.over) {
      const bucket = this.#bucket(file, over.ruleId);
      if (bucket.over === null) bucket.over = { ...over };
      else {
        bucket.over.count += over.count;
        this.#first(bucket.over, over.first, over.firstDraft);
      }
    }
    for (const entry of result.listed) this.#list(this.#bucket(file, entry.finding.ruleId), entry.finding.ruleId, entry);
  }

  /** The listing of `file` (every file when not given, in name order); their counters are dropped. */
  release(file?: string): FileCapResult {
    const files = file === undefined ? [...this.#files.keys()].sort() : [file];
    const listed: CapEntry[] = [];
    const over: CapOverflow[] = [];
    for (const name of files) {
      const rules = this.#files.get(name);
      if (!rules) continue;
      for (const ruleId of [...rules.keys()].sort()) {
        const bucket = rules.get(ruleId)!;
        this.#trim(bucket, ruleId);
        listed.push(...bucket.listed);
        if (bucket.over) over.push(bucket.over);
      }
      this.#files.delete(name);
    }
    return { listed, over };
  }

  #bucket(file: string, ruleId: string): Bucket {
    let rules = this.#files.get(file);
    if (!rules) this.#files.set(file, (rules = new Map()));
    let bucket = rules.get(ruleId);
    if (!bucket) rules.set(ruleId, (bucket = { listed: [], max: null, over: null }));
    return bucket;
  }

  #list(bucket: Bucket, ruleId: string, entry: CapEntry): void {
    if (bucket.max !== null && compareFindings(entry.finding, bucket.max) > 0) {
      this.#count(bucket, ruleId, entry);
      return;
    }
    bucket.listed.push(entry);
    if (bucket.listed.length >= 2 * this.cap) this.#trim(bucket, ruleId);
  }

  #trim(bucket: Bucket, ruleId: string): void {
    if (bucket.listed.length <= this.cap) return;
    bucket.listed.sort((a, b) => compareFindings(a.finding, b.finding));
    const cut = bucket.listed.splice(this.cap);
    bucket.max = bucket.listed[bucket.listed.length - 1]!.finding;
    for (const entry of cut) this.#count(bucket, ruleId, entry);
  }

  #count(bucket: Bucket, ruleId: string, entry: CapEntry): void {
    if (bucket.over === null) bucket.over = { ruleId, count: 1, first: entry.finding, firstDraft: entry.draft };
    else {
      bucket.over.count += 1;
      this.#first(bucket.over, entry.finding, entry.draft);
    }
  }

  #first(over: CapOverflow, finding: Finding, draft: FindingDraft): void {
    if (compareFindings(finding, over.first) < 0) {
      over.first = finding;
      over.firstDraft = draft;
    }
  }
}

/** The summary finding's draft of what one rule did not list in one file. */
export function overflowDraft(over: CapOverflow, cap: number): FindingDraft {
  const first = over.firstDraft;
  return {
    loc: first.loc,
    runId: first.runId ?? null,
    ...(first.place === undefined ? {} : { place: first.place }),
    message: `${over.count} more ${over.ruleId} finding(s) in this file from line ${first.loc.line} on are not listed: a rule lists at most ${cap} per file (limits.max-findings-per-rule)`,
    key: 'findings-not-listed',
  };
}
