import { describe, expect, it } from 'vitest';
import type { Price } from '../../../shared/schemas/prices';
import {
  groupByDestination,
  subtractAmount,
  sumAmounts,
} from './destination-groups';

const price = (prefix: string, name: string, blocked = false): Price => ({
  prefix,
  name,
  pricePerSegment: 0.07,
  blocked,
});

describe('groupByDestination', () => {
  it('groups by the longest matching prefix, the rest under the default price, largest first', () => {
    const groups = groupByDestination(
      [
        '447700900123',
        '449012345678',
        '33612345678',
        '447700900124',
        '15550100',
      ],
      [
        price('44', 'United Kingdom'),
        price('4490', 'UK premium', true),
        price('33', 'France'),
      ],
    );
    expect(
      groups.map((g) => [g.prefix, g.name, g.blocked, g.recipients]),
    ).toEqual([
      ['44', 'United Kingdom', false, ['447700900123', '447700900124']],
      ['4490', 'UK premium', true, ['449012345678']],
      ['33', 'France', false, ['33612345678']],
      [null, 'Other destinations', false, ['15550100']],
    ]);
  });

  it('has no groups without recipients', () => {
    expect(groupByDestination([], [price('44', 'United Kingdom')])).toEqual([]);
  });
});

describe('amounts', () => {
  it('adds and subtracts exactly, where floating point would not', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumAmounts([0.1, 0.2])).toBe('0.300000');
    expect(sumAmounts(['0.0725', '1.5', 0.000001])).toBe('1.572501');
    expect(subtractAmount(12.5, '0.3')).toBe('12.200000');
    expect(subtractAmount(0.1, '0.300000')).toBe('-0.200000');
  });
});
