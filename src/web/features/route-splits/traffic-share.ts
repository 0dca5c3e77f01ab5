/**
 * Each split's share of the client's traffic, weight / sum of weights, as text with one
 * decimal ('33.3 %'). Integer arithmetic in tenths of a percent, rounded half up; with every
 * weight at 0 nothing is routed and each share is '0 %'.
 */
export function trafficShares(
  splits: readonly { id: string; weight: number }[],
): Map<string, string> {
  const total = splits.reduce((sum, split) => sum + split.weight, 0);
  return new Map(
    splits.map((split) => {
      if (total === 0) return [split.id, '0 %'];
      const tenths = Math.floor((split.weight * 2000 + total) / (2 * total));
      const text =
        tenths % 10 === 0
          ? `${tenths / 10}`
          : `${Math.floor(tenths / 10)}.${tenths % 10}`;
      return [split.id, `${text} %`];
    }),
  );
}
