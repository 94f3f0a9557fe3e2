// The median the benches print: the middle value of the sorted figures (the upper one of an even count).

/** The middle of `xs` once sorted; NaN when there is none. */
export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
}
