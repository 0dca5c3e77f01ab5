import { PageHeader } from '../../components/ui/page-header';
import { useDefaultBalance } from '../../features/balances/api/get-default-balance';
import { BalanceHistory } from '../../features/billing/components/balance-history';
import { useConfig } from '../../features/config/api/get-config';
import { useCurrentClient } from '../current-client';

export function BillingBalanceRoute() {
  const { currentClient } = useCurrentClient();
  const clientId = currentClient?.id ?? null;
  const balance = useDefaultBalance(clientId);
  const config = useConfig();
  return (
    <>
      <PageHeader title="Balance" />
      <BalanceHistory
        key={clientId}
        clientId={clientId}
        currency={balance.data?.currency ?? config.data?.currency ?? ''}
      />
    </>
  );
}
