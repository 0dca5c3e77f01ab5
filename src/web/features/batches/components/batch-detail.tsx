import { useState } from 'react';
import { formatMoney } from '../../../../shared/money';
import type { Batch } from '../../../../shared/schemas/campaigns';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SectionCard } from '../../../components/ui/section-card';
import { Skeleton } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toaster';
import { paths } from '../../../config/paths';
import { errorText, isApiError } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useCancelBatch } from '../api/cancel-batch';
import { useBatch } from '../api/get-batch';
import { isBatchFinal } from '../batch-progress-model';
import { BatchProgress } from './batch-progress';
import './batches.css';

/**
 * A batch's page: its progress by state, asked again every few seconds until every message
 * is final; its messages in the Message Log; cancel while some are still scheduled.
 */
export function BatchDetail({
  clientId,
  batchId,
  currency,
}: {
  clientId: string;
  batchId: string;
  currency: string;
}) {
  const batch = useBatch(clientId, batchId);
  if (batch.isPending) {
    return (
      <div className="stack" aria-busy="true">
        <span className="sr-only">Loading the batch</span>
        <Skeleton height="160px" />
      </div>
    );
  }
  if (batch.isError) {
    return (
      <div className="stack-sm">
        <Alert tone="danger">
          {isApiError(batch.error, 404)
            ? 'This batch does not exist.'
            : errorText(batch.error)}
        </Alert>
        <div>
          <Button size="sm" onClick={() => void batch.refetch()}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  return (
    <BatchCard clientId={clientId} batch={batch.data} currency={currency} />
  );
}

function BatchCard({
  clientId,
  batch,
  currency,
}: {
  clientId: string;
  batch: Batch;
  currency: string;
}) {
  const toast = useToast();
  const cancel = useCancelBatch();
  const [confirming, setConfirming] = useState(false);
  const scheduled = batch.states.SCHEDULED ?? 0;
  // The cancel also stops ACCEPTED messages still waiting (a paced batch): CONTRACT "Stopping
  // traffic". Only scheduled ones waiting: the words say so.
  const accepted = batch.states.ACCEPTED ?? 0;
  const waiting = scheduled + accepted;
  const onlyScheduled = accepted === 0;
  const cancelLabel = onlyScheduled
    ? 'Cancel scheduled messages'
    : 'Cancel messages not yet sent';
  const final = isBatchFinal(batch);
  return (
    <div className="stack">
      <SectionCard title="Progress" className="stack">
        <BatchProgress batch={batch} />
        {final ? null : (
          <p className="muted">
            {scheduled > 0 && scheduled === batch.total
              ? 'Waiting for its send time.'
              : 'Updating every few seconds until every message is final.'}
          </p>
        )}
        <div className="batch-actions">
          <ButtonLink to={paths.batchMessages(batch.id)}>
            Open its messages in the Message Log
          </ButtonLink>
          {waiting > 0 ? (
            <Button variant="danger" onClick={() => setConfirming(true)}>
              {cancelLabel}
            </Button>
          ) : null}
        </div>
        {cancel.error ? (
          <Alert tone="danger" onDismiss={() => cancel.reset()}>
            {errorText(cancel.error)}
          </Alert>
        ) : null}
      </SectionCard>
      <SectionCard title="Batch">
        <dl className="details">
          <div className="details-pair">
            <dt>Recipients</dt>
            <dd className="tabular">{batch.total}</dd>
          </div>
          <div className="details-pair">
            <dt>Amount</dt>
            <dd className="tabular">{formatMoney(currency, batch.amount)}</dd>
          </div>
          <div className="details-pair">
            <dt>Sender</dt>
            <dd>{batch.sender}</dd>
          </div>
          <div className="details-pair">
            <dt>Body</dt>
            <dd className="batch-body">{batch.body}</dd>
          </div>
          <div className="details-pair">
            <dt>Send at</dt>
            <dd>{batch.sendAt ? formatDateTime(batch.sendAt) : 'At once'}</dd>
          </div>
          <div className="details-pair">
            <dt>Created</dt>
            <dd>{formatDateTime(batch.dateCreated)}</dd>
          </div>
          <div className="details-pair">
            <dt>Batch ID</dt>
            <dd className="mono">{batch.id}</dd>
          </div>
        </dl>
      </SectionCard>
      <ConfirmDialog
        open={confirming}
        destructive
        pending={cancel.isPending}
        text={
          onlyScheduled
            ? `Cancel the ${scheduled} scheduled ${scheduled === 1 ? 'message' : 'messages'} of this batch? ${scheduled === 1 ? 'It is' : 'They are'} refunded.`
            : `Cancel the ${waiting} ${waiting === 1 ? 'message' : 'messages'} of this batch not yet sent? Each one canceled is refunded; one being handed to a provider right now still goes out.`
        }
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          cancel.mutate(
            { clientId, batchId: batch.id },
            {
              onSuccess: () =>
                toast.show(
                  onlyScheduled
                    ? 'Scheduled messages canceled and refunded'
                    : 'Messages not yet sent canceled and refunded',
                  {
                    tone: 'success',
                  },
                ),
              onSettled: () => setConfirming(false),
            },
          )
        }
      />
    </div>
  );
}
