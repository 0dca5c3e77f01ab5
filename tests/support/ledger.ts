import { expect } from 'vitest';
import { ledgerDifferences } from '../../src/server/features/balances/ledger-check.ts';
import type { TestServer } from './start-server.ts';

/**
 * The ledger is the truth: after any race, every balance of the server's database must equal
 * the sum of its ledger rows, and every row's balance-after the running sum (what
 * `npm run ledger:verify` checks for operators). Fails the test with the differences.
 */
export async function expectLedgerBalanced(server: TestServer): Promise<void> {
  expect(await ledgerDifferences(server.app.db)).toEqual([]);
}
