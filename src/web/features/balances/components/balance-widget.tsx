import { formatMoney } from '../../../../shared/money';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toaster';
import { useDefaultBalance } from '../api/get-default-balance';
import { LowBalanceWarning } from './low-balance-warning';
import './balances.css';

const TOP_UP_MESSAGE = 'Please contact us for top ups';

/**
 * The sidebar's balance (spec §2): loading image, then `EUR 12.50` or 'No balance'. A failed
 * reload keeps the last value shown (spec §8). Below the threshold staff set, a warning line.
 */
export function BalanceWidget({
  clientId,
  clientsLoading,
  onViewDetails,
}: {
  clientId: string | null;
  /** While the clients load, the client (and so the balance) is not known yet. */
  clientsLoading: boolean;
  onViewDetails: () => void;
}) {
  const balance = useDefaultBalance(clientId);
  const toast = useToast();
  const loading = clientsLoading || (clientId !== null && balance.isPending);

  return (
    <section className="balance-widget" aria-labelledby="balance-widget-label">
      <div id="balance-widget-label" className="balance-label">
        Balance
      </div>
      <div className="balance-value" aria-live="polite" aria-busy={loading}>
        {loading ? (
          <Spinner label="Loading balance" />
        ) : balance.data ? (
          <span className="amount">
            {formatMoney(balance.data.currency, balance.data.amount)}
          </span>
        ) : (
          <span className="muted">No balance</span>
        )}
      </div>
      {loading ? null : <LowBalanceWarning balance={balance.data} compact />}
      <div className="balance-actions">
        <Button size="sm" variant="ghost" onClick={onViewDetails}>
          View Details
        </Button>
        <Button
          size="sm"
          variant="primary"
          onClick={() => toast.show(TOP_UP_MESSAGE, { role: 'alert' })}
        >
          Top Up
        </Button>
      </div>
    </section>
  );
}
