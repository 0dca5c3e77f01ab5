import { sendFailureText } from '../../lib/api-error';
import { Alert } from '../ui/alert';

/**
 * Why the last send (one SMS or a batch) failed, beside the Send button, until dismissed or
 * sent again: takes the send's mutation (React Query's `error` and `reset`).
 */
export function SendFailureAlert({
  send,
}: {
  send: { error: unknown; reset: () => void };
}) {
  if (!send.error) return null;
  return (
    <Alert tone="danger" onDismiss={() => send.reset()}>
      {sendFailureText(send.error)}
    </Alert>
  );
}
