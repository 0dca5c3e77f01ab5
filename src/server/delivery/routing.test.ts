import { describe, expect, it } from 'vitest';
import { routeFor } from './routing.ts';

describe('routeFor', () => {
  it('draws 70/30 splits within ±2 points over 10,000 messages; weight 0 gets none', () => {
    const counts = { MELROSE_SMPP: 0, VONAGE_SMS: 0, WORLD_SPECIAL: 0 };
    const splits = [
      { method: 'MELROSE_SMPP', weight: 70 },
      { method: 'VONAGE_SMS', weight: 30 },
      { method: 'WORLD_SPECIAL', weight: 0 },
    ] as const;
    for (let i = 0; i < 10_000; i++) {
      const route = routeFor(splits, 'MELROSE_SMPP');
      counts[route[0]!]++;
      // Failover goes to the other drawable method only, never to the drained one.
      expect(route).toHaveLength(2);
      expect(route).not.toContain('WORLD_SPECIAL');
    }
    expect(Math.abs(counts.MELROSE_SMPP / 100 - 70)).toBeLessThanOrEqual(2);
    expect(Math.abs(counts.VONAGE_SMS / 100 - 30)).toBeLessThanOrEqual(2);
    expect(counts.WORLD_SPECIAL).toBe(0);
  });

  it('maps the draw onto the cumulative weights, heaviest first', () => {
    const splits = [
      { method: 'VONAGE_SMS', weight: 30 },
      { method: 'MELROSE_SMPP', weight: 70 },
    ] as const;
    expect(routeFor(splits, 'WORLD_SPECIAL', () => 0)).toEqual([
      'MELROSE_SMPP',
      'VONAGE_SMS',
    ]);
    expect(routeFor(splits, 'WORLD_SPECIAL', () => 0.6999)[0]).toBe(
      'MELROSE_SMPP',
    );
    expect(routeFor(splits, 'WORLD_SPECIAL', () => 0.7)).toEqual([
      'VONAGE_SMS',
      'MELROSE_SMPP',
    ]);
    expect(routeFor(splits, 'WORLD_SPECIAL', () => 0.9999)[0]).toBe(
      'VONAGE_SMS',
    );
  });

  it('adds up several splits of one method', () => {
    const route = routeFor(
      [
        { method: 'VONAGE_SMS', weight: 10 },
        { method: 'VONAGE_SMS', weight: 50 },
        { method: 'MELROSE_SMPP', weight: 40 },
      ],
      'WORLD_SPECIAL',
      () => 0.5,
    );
    expect(route).toEqual(['VONAGE_SMS', 'MELROSE_SMPP']);
  });

  it('uses the default method alone when no split has weight > 0', () => {
    expect(routeFor([], 'WORLD_SPECIAL')).toEqual(['WORLD_SPECIAL']);
    expect(
      routeFor([{ method: 'VONAGE_SMS', weight: 0 }], 'MELROSE_SMPP'),
    ).toEqual(['MELROSE_SMPP']);
  });
});
