import { useState } from 'react';
import type { Client } from '../../../../shared/schemas/clients';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SectionCard } from '../../../components/ui/section-card';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { needsRoleText, useCanCall } from '../../../lib/permissions';
import {
  useStopClientTraffic,
  useWaitingMessages,
} from '../api/stop-client-traffic';

const STOP_ACCESS = { family: 'CLIENT', verb: 'ADMIN' } as const;

const messagesText = (n: number) => `${n} ${n === 1 ? 'message' : 'messages'}`;

/**
 * Staff stop a client's traffic (CONTRACT "Stopping traffic"): its messages not yet taken by a
 * provider are cancelled and refunded, after a confirmation naming how many wait.
 */
export function StopTrafficCard({ client }: { client: Client }) {
  const toast = useToast();
  const canStop = useCanCall(STOP_ACCESS);
  const waiting = useWaitingMessages(client.id);
  const stop = useStopClientTraffic(client.id);
  const [confirming, setConfirming] = useState(false);
  const count = waiting.data ?? 0;
  return (
    <SectionCard title="Traffic" className="stack">
      <p>
        {waiting.isPending
          ? 'Counting the messages waiting…'
          : `${messagesText(count)} waiting (scheduled or queued).`}
      </p>
      {canStop ? (
        <div>
          <Button
            variant="danger"
            disabled={count === 0}
            onClick={() => setConfirming(true)}
          >
            Stop traffic
          </Button>
        </div>
      ) : (
        <p className="muted">{needsRoleText(STOP_ACCESS)} to stop it.</p>
      )}
      {stop.error ? (
        <Alert tone="danger" onDismiss={() => stop.reset()}>
          {errorText(stop.error)}
        </Alert>
      ) : null}
      <ConfirmDialog
        open={confirming}
        destructive
        pending={stop.isPending}
        text={`Cancel the ${messagesText(count)} of this client not yet sent? Each one canceled is refunded; one being handed to a provider right now still goes out.`}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          stop.mutate(undefined, {
            onSuccess: ({ canceled }) =>
              toast.show(`${messagesText(canceled)} canceled and refunded`, {
                tone: 'success',
              }),
            onSettled: () => setConfirming(false),
          })
        }
      />
    </SectionCard>
  );
}
