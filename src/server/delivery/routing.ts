import type { DeliveryMethod } from './types.ts';

export interface Split {
  method: DeliveryMethod;
  weight: number;
}

/**
 * The methods a message tries, in order: first one method drawn with probability weight / sum
 * of weights over the client's splits (several splits of one method add up; weight 0 drains a
 * split: it is never drawn and never a failover target), then every other method of those
 * splits, heaviest first, for failover. With no split of weight > 0: the default method alone.
 * `random` returns [0, 1) like Math.random.
 */
export function routeFor(
  splits: readonly Split[],
  defaultMethod: DeliveryMethod,
  random: () => number = Math.random,
): DeliveryMethod[] {
  const weights = new Map<DeliveryMethod, number>();
  for (const { method, weight } of splits) {
    if (weight > 0) weights.set(method, (weights.get(method) ?? 0) + weight);
  }
  if (weights.size === 0) return [defaultMethod];
  const ordered = [...weights].sort(
    ([a, wa], [b, wb]) => wb - wa || a.localeCompare(b),
  );
  const total = ordered.reduce((sum, [, w]) => sum + w, 0);
  let draw = random() * total;
  let chosen = ordered.at(-1)![0];
  for (const [method, weight] of ordered) {
    if (draw < weight) {
      chosen = method;
      break;
    }
    draw -= weight;
  }
  return [chosen, ...ordered.map(([m]) => m).filter((m) => m !== chosen)];
}
