import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { simulatedMethods } from './connectors.ts';

const delivery = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: 'memory://', ...env }).delivery;

describe('simulatedMethods', () => {
  it('is every method when nothing is configured', () => {
    expect(simulatedMethods(delivery({})).sort()).toEqual([
      'MELROSE_SMPP',
      'VONAGE_SMS',
      'WORLD_SPECIAL',
    ]);
  });

  it('leaves out each method whose connector is configured', () => {
    expect(
      simulatedMethods(delivery({ SMPP_HOST: 'smsc.example' })).sort(),
    ).toEqual(['VONAGE_SMS', 'WORLD_SPECIAL']);
    expect(
      simulatedMethods(
        delivery({
          VONAGE_API_KEY: 'key',
          VONAGE_API_SECRET: 'secret',
          WORLD_SPECIAL_URL: 'https://gw.example/submit',
          WORLD_SPECIAL_TOKEN: 'token',
        }),
      ),
    ).toEqual(['MELROSE_SMPP']);
  });
});
