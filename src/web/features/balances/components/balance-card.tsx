import { formatMoney } from '../../../../shared/money';
import type { Balance } from '../../../../shared/schemas/balances';
import './balances.css';

/** A client's balance as a card (Quick Start's second step). */
export function BalanceCard({ balance }: { balance: Balance }) {
  return (
    <div className="card balance-card">
      <div className="balance-label">Balance</div>
      <div className="balance-amount amount">
        {formatMoney(balance.currency, balance.amount)}
      </div>
      <p className="muted">
        Top-ups are made by our team: get in touch and we add funds to this
        client&apos;s balance.
      </p>
    </div>
  );
}
