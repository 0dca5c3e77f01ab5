import { useParams } from 'react-router';
import { ButtonLink } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { useDefaultBalance } from '../../features/balances/api/get-default-balance';
import { useBranding } from '../../features/branding/api/get-branding';
import { BatchDetail } from '../../features/batches/components/batch-detail';
import { paths } from '../../config/paths';
import { useCurrentClient } from '../current-client';
import { NoClientCard } from './no-client-card';

/** /messaging/bulk/:batchId: a batch's progress, live until every message is final. */
export function MessagingBatchRoute() {
  const { batchId = '' } = useParams();
  const { currentClient } = useCurrentClient();
  const branding = useBranding();
  const balance = useDefaultBalance(currentClient?.id ?? null);
  const currency = balance.data?.currency ?? branding.data?.currency ?? '';
  return (
    <>
      <PageHeader
        title="Batch"
        description="Its messages by state, updated live until every one is final."
        actions={<ButtonLink to={paths.bulk}>All batches</ButtonLink>}
      />
      {currentClient ? (
        <BatchDetail
          key={`${currentClient.id}-${batchId}`}
          clientId={currentClient.id}
          batchId={batchId}
          currency={currency}
        />
      ) : (
        <NoClientCard text="You need a client to send messages." />
      )}
    </>
  );
}
