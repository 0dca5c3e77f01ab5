import { useQueryClient } from '@tanstack/react-query';
import { PageHeader } from '../../components/ui/page-header';
import { Skeleton } from '../../components/ui/spinner';
import {
  defaultBalanceQueryOptions,
  useDefaultBalance,
} from '../../features/balances/api/get-default-balance';
import { useBranding } from '../../features/branding/api/get-branding';
import { SmsForm } from '../../features/messages/components/sms-form';
import { queryKeys } from '../../lib/query-keys';
import { useCurrentClient } from '../current-client';
import { NoClientCard } from './no-client-card';

export function MessagingSmsRoute() {
  const { currentClient } = useCurrentClient();
  const branding = useBranding();
  const balance = useDefaultBalance(currentClient?.id ?? null);
  const queryClient = useQueryClient();

  return (
    <>
      <PageHeader
        title="Send an SMS"
        description={
          currentClient
            ? `Sent from the client ${currentClient.name}; the price is taken from its balance.`
            : undefined
        }
      />
      {!currentClient ? (
        <NoClientCard text="You need a client to send messages." />
      ) : branding.data ? (
        <SmsForm
          key={currentClient.id}
          clientId={currentClient.id}
          sender={branding.data.providerShortName}
          smsPrice={branding.data.smsPrice}
          currency={balance.data?.currency ?? branding.data.currency}
          balanceAmount={balance.data?.amount}
          onSent={() => {
            // The balance widget and this page reload the balance after a send (spec §2),
            // and the Message Log shows the new message.
            void queryClient.invalidateQueries({
              queryKey: defaultBalanceQueryOptions(currentClient.id).queryKey,
            });
            void queryClient.invalidateQueries({
              queryKey: queryKeys.messages.ofClient(currentClient.id),
            });
          }}
        />
      ) : (
        <Skeleton height="480px" />
      )}
    </>
  );
}
