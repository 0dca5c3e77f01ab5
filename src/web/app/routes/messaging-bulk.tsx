import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { Skeleton } from '../../components/ui/spinner';
import { BatchList } from '../../features/batches/components/batch-list';
import { BulkSendForm } from '../../features/batches/components/bulk-send-form';
import {
  defaultBalanceQueryOptions,
  useDefaultBalance,
} from '../../features/balances/api/get-default-balance';
import { useBranding } from '../../features/branding/api/get-branding';
import {
  getQuote,
  quoteQueryOptions,
} from '../../features/messages/api/get-quote';
import { useAllPrices } from '../../features/prices/api/get-prices';
import { paths } from '../../config/paths';
import { queryKeys } from '../../lib/query-keys';
import { useCurrentClient } from '../current-client';
import { NoClientCard } from './no-client-card';

/** /messaging/bulk: one body to a list of recipients, then the batches sent so far. */
export function MessagingBulkRoute() {
  const { currentClient } = useCurrentClient();
  const branding = useBranding();
  const balance = useDefaultBalance(currentClient?.id ?? null);
  const prices = useAllPrices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const currency = balance.data?.currency ?? branding.data?.currency ?? '';

  return (
    <>
      <PageHeader
        title="Bulk send"
        description={
          currentClient
            ? `One message to many recipients from the client ${currentClient.name}, all or nothing; the price is taken from its balance.`
            : undefined
        }
      />
      {!currentClient ? (
        <NoClientCard text="You need a client to send messages." />
      ) : branding.data ? (
        <div className="stack" key={currentClient.id}>
          <BulkSendForm
            clientId={currentClient.id}
            currency={currency}
            balanceAmount={balance.data?.amount}
            prices={prices.data}
            quoteOptions={(query) => ({
              queryKey: quoteQueryOptions(currentClient.id, query).queryKey,
              queryFn: () => getQuote(currentClient.id, query),
            })}
            onSent={(batch) => {
              for (const queryKey of [
                defaultBalanceQueryOptions(currentClient.id).queryKey,
                queryKeys.messages.ofClient(currentClient.id),
                queryKeys.batches.ofClient(currentClient.id),
              ]) {
                void queryClient.invalidateQueries({ queryKey });
              }
              void navigate(paths.batch(batch.id));
            }}
          />
          <BatchList clientId={currentClient.id} currency={currency} />
        </div>
      ) : (
        <Skeleton height="480px" />
      )}
    </>
  );
}
