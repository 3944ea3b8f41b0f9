import type { Finding } from '../../model/finding.js';
import { compareFindings } from './findings.js';

/** K-way merge of sorted sequences; on ties the earlier sequence comes first (a stable merge). */
export function* mergeSorted(iterators: Array<Iterator<Finding>>): Generator<Finding, void, undefined> {
  try {
    if (iterators.length === 1) {
      for (let next = iterators[0]!.next(); !next.done; next = iterators[0]!.next()) yield next.value;
      return;
    }
    const heap: Array<{ value: Finding; source: number }> = [];
    const before = (a: { value: Finding; source: number }, b: { value: Finding; source: number }) => {
      const order = compareFindings(a.value, b.value);
      return order < 0 || (order === 0 && a.source < b.source);
    };
    const push = (entry: { value: Finding; source: number }) => {
      let i = heap.length;
      heap.push(entry);
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    };
    const siftDown = () => {
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < heap.length && before(heap[left]!, heap[least]!)) least = left;
        if (right < heap.length && before(heap[right]!, heap[least]!)) least = right;
        if (least === i) return;
        [heap[i], heap[least]] = [heap[least]!, heap[i]!];
        i = least;
      }
    };
    iterators.forEach((iterator, source) => {
      const next = iterator.next();
      if (!next.done) push({ value: next.value, source });
    });
    while (heap.length > 0) {
      const top = heap[0]!;
      yield top.value;
      const next = iterators[top.source]!.next();
      if (next.done) {
        const last = heap.pop()!;
        if (heap.length === 0) break;
        heap[0] = last;
      } else {
        heap[0] = { value: next.value, source: top.source };
      }
      siftDown();
    }
  } finally {
    for (const iterator of iterators) iterator.return?.();
  }
}
