import { PageHeader } from '../../components/ui/page-header';
import { BalanceHistory } from '../../features/billing/components/balance-history';

export function BillingBalanceRoute() {
  return (
    <>
      <PageHeader title="Balance" />
      <BalanceHistory />
    </>
  );
}
