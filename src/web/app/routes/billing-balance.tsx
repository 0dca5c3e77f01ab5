import { ButtonLink } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { useDefaultBalance } from '../../features/balances/api/get-default-balance';
import { BalanceHistory } from '../../features/balances/components/balance-history';
import { useBranding } from '../../features/branding/api/get-branding';
import { useCurrentClient } from '../current-client';

export function BillingBalanceRoute() {
  const { currentClient } = useCurrentClient();
  const clientId = currentClient?.id ?? null;
  const balance = useDefaultBalance(clientId);
  const branding = useBranding();
  return (
    <>
      <PageHeader
        title="Balance"
        actions={<ButtonLink to={paths.billingPrices}>Prices</ButtonLink>}
      />
      <BalanceHistory
        key={clientId}
        clientId={clientId}
        currency={balance.data?.currency ?? branding.data?.currency ?? ''}
      />
    </>
  );
}
