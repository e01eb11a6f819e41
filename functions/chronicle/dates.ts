/** YYYY, YYYY-MM or YYYY-MM-DD: the precisions the contract allows for dates and date filters. */
export const DATE_PATTERN = /^\d{4}(?:-\d{2}(?:-\d{2})?)?$/;

/** Whether a value has one of the date forms and names a real calendar date. */
export function isDate(v: string): boolean {
  if (!DATE_PATTERN.test(v)) return false;
  const [y, m, d] = v.split('-').map(Number);
  if (m === undefined) return true;
  if (m < 1 || m > 12) return false;
  return d === undefined || (d >= 1 && d <= new Date(Date.UTC(y!, m, 0)).getUTCDate());
}

/** Compares two dates of any precision after cutting both to the shorter one (the contract's rule). */
export function compareDates(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  const x = a.slice(0, n);
  const y = b.slice(0, n);
  return x < y ? -1 : x > y ? 1 : 0;
}
