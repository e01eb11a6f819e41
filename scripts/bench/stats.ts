export function percentile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

/** A Markdown table, so that figures paste straight into docs/performance.md. */
export function table(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
