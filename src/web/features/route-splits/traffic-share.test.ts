import { describe, expect, it } from 'vitest';
import { trafficShares } from './traffic-share';

const split = (id: string, weight: number) => ({ id, weight });

describe('trafficShares', () => {
  it('gives each split its weight over the sum of the weights', () => {
    const shares = trafficShares([split('a', 10), split('b', 30)]);
    expect(shares.get('a')).toBe('25 %');
    expect(shares.get('b')).toBe('75 %');
  });

  it('rounds to one decimal, half up', () => {
    const shares = trafficShares([split('a', 1), split('b', 1), split('c', 1)]);
    expect([...shares.values()]).toEqual(['33.3 %', '33.3 %', '33.3 %']);
    // 1/16 = 6.25 % → 6.3 %; 15/16 = 93.75 % → 93.8 %
    const halves = trafficShares([split('x', 1), split('y', 15)]);
    expect(halves.get('x')).toBe('6.3 %');
    expect(halves.get('y')).toBe('93.8 %');
  });

  it('a single split takes everything, a zero weight nothing', () => {
    expect(trafficShares([split('a', 10)]).get('a')).toBe('100 %');
    const shares = trafficShares([split('a', 0), split('b', 5)]);
    expect(shares.get('a')).toBe('0 %');
    expect(shares.get('b')).toBe('100 %');
  });

  it('with every weight at 0 nothing is routed', () => {
    expect([...trafficShares([split('a', 0), split('b', 0)]).values()]).toEqual(
      ['0 %', '0 %'],
    );
  });
});
