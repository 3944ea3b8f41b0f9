/** Types of the bench generator's exports that TypeScript tests use. */
export function mulberry32(seed: number): () => number;
