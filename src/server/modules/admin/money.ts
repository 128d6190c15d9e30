// Money conversion without floating point: amounts are integer minor units and rates are the
// database's decimal strings (numeric(14,6)), so the product is exact and rounded once, half up.

const RATE = /^(\d+)(?:\.(\d{0,6}))?$/;

/** `amountMinor` × `rate`, rounded half away from zero to a whole minor unit. */
export function convertMinor(amountMinor: number, rate: string): number {
  if (!Number.isSafeInteger(amountMinor)) throw new Error(`amount must be whole minor units: ${amountMinor}`);
  const m = RATE.exec(rate.trim());
  if (!m) throw new Error(`not a decimal rate: ${rate}`);
  const micros = BigInt(m[1] ?? "0") * 1_000_000n + BigInt((m[2] ?? "").padEnd(6, "0"));
  const product = BigInt(amountMinor) * micros;
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs + 500_000n) / 1_000_000n;
  return Number(negative ? -rounded : rounded);
}
