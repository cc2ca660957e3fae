/**
 * mulberry32: a seeded PRNG in five lines. Hand-rolled because Math.random cannot be seeded and
 * a chaos plan or a generated test case must replay exactly from a printed seed; its statistical
 * quality is plenty for that. Shared by the chaos plan and the tests that generate inputs.
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
