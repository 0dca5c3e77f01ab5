import type { Branding } from '../../shared/schemas/branding';
import type { Balance } from '../../shared/schemas/balances';
import type { Client } from '../../shared/schemas/clients';
import type { MyUser } from '../../shared/schemas/users';

export const testBranding: Branding = {
  productName: 'Skyline Console',
  providerName: 'Skyline Telecom',
  providerShortName: 'Skyline',
  currency: 'EUR',
  smsPrice: '0.05',
};

const when = '2026-01-02T03:04:05.000Z';

export function makeUser(overrides: Partial<MyUser> = {}): MyUser {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    firstName: 'Ada',
    lastName: 'Lovelace',
    organization: 'Analytical Engines',
    email: 'ada@example.test',
    dateCreated: when,
    dateUpdated: when,
    roles: ['ROLE_SMS_CREATE'],
    ...overrides,
  };
}

export function makeClient(overrides: Partial<Client> = {}): Client {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    userId: '11111111-1111-4111-8111-111111111111',
    name: 'Main client',
    dateCreated: when,
    dateUpdated: when,
    secretLastUsedAt: null,
    allowedPrefixes: null,
    maxMessagesPerSecond: null,
    ...overrides,
  };
}

export function makeBalance(overrides: Partial<Balance> = {}): Balance {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    currency: 'EUR',
    amount: 12.5,
    minThreshold: 0,
    dateCreated: when,
    dateUpdated: when,
    ...overrides,
  };
}
