/**
 * A whole number with its thousands separated by commas, as `toLocaleString('en-US')` writes
 * it (`12,345`), without ICU: a process's first toLocaleString loads the locale data, about
 * 18 ms, which is a tenth of a short CLI run's start.
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) out = `${digits.slice(Math.max(0, end - 3), end)}${out === '' ? '' : ','}${out}`;
  return n < 0 ? `-${out}` : out;
}
