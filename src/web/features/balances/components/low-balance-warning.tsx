import { formatMoney } from '../../../../shared/money';
import type { Balance } from '../../../../shared/schemas/balances';
import { Alert } from '../../../components/ui/alert';
import './low-balance-warning.css';

/** True when staff set a threshold and the balance has fallen below it (CONTRACT.md). */
export function isBelowThreshold(balance: Balance | undefined): boolean {
  return balance !== undefined && balance.amount < balance.minThreshold;
}

/**
 * The low-balance warning: a status message (announced, never stealing focus). `compact` is
 * the sidebar widget's one line; otherwise a banner that says what to do.
 */
export function LowBalanceWarning({
  balance,
  compact = false,
}: {
  balance: Balance | undefined;
  compact?: boolean;
}) {
  if (!balance || !isBelowThreshold(balance)) return null;
  const threshold = formatMoney(balance.currency, balance.minThreshold);
  if (compact) {
    return (
      <p role="status" className="low-balance-compact">
        <span aria-hidden="true">⚠ </span>Low balance: below {threshold}
      </p>
    );
  }
  return (
    <Alert tone="warning" role="status">
      Low balance: {formatMoney(balance.currency, balance.amount)} is below{' '}
      {threshold}. Messages stop when the balance runs out; contact us to top
      up.
    </Alert>
  );
}
