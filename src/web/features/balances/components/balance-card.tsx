import { formatMoney } from '../../../../shared/money';
import { Link } from 'react-router';
import type { Balance } from '../../../../shared/schemas/balances';
import { paths } from '../../../config/paths';
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
      <p>
        <Link to={paths.billingPrices}>Prices by destination</Link>
      </p>
    </div>
  );
}
