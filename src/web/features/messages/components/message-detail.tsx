import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '../../../../shared/money';
import { Alert } from '../../../components/ui/alert';
import { SectionCard } from '../../../components/ui/section-card';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useToast } from '../../../components/ui/toaster';
import { paths } from '../../../config/paths';
import { useCancelMessage } from '../api/cancel-message';
import { Skeleton } from '../../../components/ui/spinner';
import { errorText, isApiError } from '../../../lib/api-error';
import { callbackOutcome } from '../../../lib/callback-outcome';
import { useMessage } from '../api/get-message';
import { groupCallbacks, type CallbackEvent } from '../callback-events';
import { formatDateTime, formatPriceFrom } from '../../../lib/format';
import type {
  DeliveryAttempt,
  MessageDetail as Detail,
  MessageSource,
} from '../message-log-model';
import type { MessageCallback } from '../../../../shared/schemas/messages';
import { MessageStateBadge, SimulatedLabel } from './message-state-badge';
import './message-log.css';
import './messages.css';

/**
 * The side panel of one message: its fields, then every delivery attempt (method, state,
 * provider id, error, time). It refreshes itself while the message is in flight.
 */
export function MessageDetail({
  messageId,
  ...source
}: MessageSource & { messageId: string }) {
  const message = useMessage({ ...source, messageId });

  if (message.isPending) {
    return (
      <div className="stack" aria-busy="true">
        <span className="sr-only">Loading the message</span>
        <Skeleton height="220px" />
        <Skeleton height="96px" />
      </div>
    );
  }
  if (message.isError) {
    return (
      <div className="stack-sm">
        <Alert tone="danger">
          {isApiError(message.error, 404)
            ? 'This message does not exist.'
            : errorText(message.error)}
        </Alert>
        <div>
          <Button size="sm" onClick={() => void message.refetch()}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="stack message-detail">
      {message.data.state === 'SCHEDULED' && !source.asAdmin ? (
        <CancelScheduled message={message.data} />
      ) : null}
      <MessageFields message={message.data} asAdmin={source.asAdmin} />
      <Attempts attempts={message.data.attempts} />
      {message.data.callbacks.length > 0 ? (
        <Callbacks callbacks={message.data.callbacks} />
      ) : null}
    </div>
  );
}

/**
 * A SCHEDULED message can be cancelled until its send time: after a confirmation it becomes
 * CANCELED and its price is refunded (the panel shows both once asked again).
 */
function CancelScheduled({ message }: { message: Detail }) {
  const toast = useToast();
  const cancel = useCancelMessage();
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="stack-sm">
      <div>
        <Button variant="danger" onClick={() => setConfirming(true)}>
          Cancel scheduled message
        </Button>
      </div>
      {cancel.error ? (
        <Alert tone="danger" onDismiss={() => cancel.reset()}>
          {isApiError(cancel.error, 409)
            ? 'It can no longer be cancelled: it has been sent already.'
            : errorText(cancel.error)}
        </Alert>
      ) : null}
      <ConfirmDialog
        open={confirming}
        destructive
        pending={cancel.isPending}
        text={`Cancel this message to ${message.recipient}? ${formatMoney(message.currency, message.price)} is refunded.`}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          cancel.mutate(
            { clientId: message.clientId, messageId: message.id },
            {
              onSuccess: () =>
                toast.show('Message canceled and refunded', {
                  tone: 'success',
                }),
              onSettled: () => setConfirming(false),
            },
          )
        }
      />
    </div>
  );
}

type FieldRow = [term: string, value: ReactNode, className?: string];

/** The rows of a scheduled or batch send: the refund of a cancel, the send time, its batch. */
function scheduling(message: Detail, asAdmin: boolean): FieldRow[] {
  const rows: FieldRow[] = [];
  if (message.state === 'CANCELED') {
    rows.push([
      'Refunded',
      formatMoney(message.currency, message.price),
      'tabular',
    ]);
    // Who or what cancelled it (the owner, staff, the client's deletion, a blocked destination).
    if (message.error) rows.push(['Reason', message.error]);
  }
  if (message.sendAt) rows.push(['Send at', formatDateTime(message.sendAt)]);
  if (message.batchId) {
    rows.push(
      asAdmin
        ? ['Batch ID', message.batchId, 'mono']
        : [
            'Batch',
            <Link to={paths.batch(message.batchId)}>Open its batch</Link>,
          ],
    );
  }
  return rows;
}

function MessageFields({
  message,
  asAdmin = false,
}: {
  message: Detail;
  asAdmin?: boolean;
}) {
  const fields: FieldRow[] = [
    ['State', <MessageStateBadge state={message.state} />],
    ['Recipient', message.recipient, 'tabular'],
    ['Sender', message.sender],
    ['Body', message.body, 'message-body'],
    ['Reference', message.reference || '—'],
    [
      'Delivery method',
      message.deliveryMethod ? (
        <span className="method-cell">
          {message.deliveryMethod}
          {message.simulated ? <SimulatedLabel /> : null}
        </span>
      ) : (
        'Not routed yet'
      ),
    ],
    ['Encoding', message.encoding],
    ['Segments', message.segments, 'tabular'],
    [
      'Price per segment',
      formatPriceFrom(
        message.currency,
        message.pricePerSegment,
        message.pricePrefix,
      ),
      'tabular',
    ],
    ['Price', formatMoney(message.currency, message.price), 'tabular'],
    ...scheduling(message, asAdmin),
    ['Created', formatDateTime(message.dateCreated)],
    ['Updated', formatDateTime(message.dateUpdated)],
    ['Message ID', message.id, 'mono'],
  ];
  return (
    <SectionCard title="Message" level={3}>
      <dl className="details">
        {fields.map(([term, value, className]) => (
          <div key={term} className="details-pair">
            <dt>{term}</dt>
            <dd className={className}>{value}</dd>
          </div>
        ))}
      </dl>
    </SectionCard>
  );
}

function Attempts({ attempts }: { attempts: DeliveryAttempt[] }) {
  return (
    <SectionCard title="Attempts" level={3}>
      {attempts.length === 0 ? (
        <p className="empty-text">
          No attempts yet: the message is waiting in the queue.
        </p>
      ) : (
        <ol className="plain-list attempt-list">
          {attempts.map((attempt, index) => (
            <li key={`${attempt.dateCreated}-${index}`} className="attempt">
              <div className="attempt-head">
                <span className="attempt-method">
                  <span className="sr-only">Attempt {index + 1}: </span>
                  {attempt.method}
                </span>
                <MessageStateBadge state={attempt.state} />
              </div>
              <dl className="details">
                <div className="details-pair">
                  <dt>Provider ID</dt>
                  <dd className="mono">{attempt.providerMessageId ?? '—'}</dd>
                </div>
                <div className="details-pair">
                  <dt>Error</dt>
                  <dd className={attempt.error ? 'is-danger' : undefined}>
                    {attempt.error ?? '—'}
                  </dd>
                </div>
                <div className="details-pair">
                  <dt>Time</dt>
                  <dd>{formatDateTime(attempt.dateCreated)}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ol>
      )}
    </SectionCard>
  );
}

const OUTCOME_LABELS: Record<CallbackEvent['outcome'], string> = {
  received: 'Received',
  retrying: 'Retrying',
  'given-up': 'Given up',
};

/**
 * The status callback events of the message (one per state change), each with its last
 * answer and, while it fails, when it is tried next and how many tries are left. Every try
 * is listed under a disclosure, folded: a failing endpoint makes up to 12 tries per event.
 */
function Callbacks({ callbacks }: { callbacks: MessageCallback[] }) {
  return (
    <SectionCard title="Status callbacks" level={3}>
      <ol className="plain-list attempt-list">
        {groupCallbacks(callbacks).map((event) => (
          <li
            key={`${event.state}-${event.tries[0]?.dateCreated}`}
            className="attempt"
            aria-label={`${event.state} event`}
          >
            <div className="attempt-head">
              <span className="attempt-method">{event.state} event</span>
              <span className={`callback-outcome is-${event.outcome}`}>
                {OUTCOME_LABELS[event.outcome]}
              </span>
            </div>
            <dl className="details">
              <div className="details-pair">
                <dt>Last answer</dt>
                <dd className={event.last.error ? 'is-danger' : undefined}>
                  {callbackOutcome(event.last)}
                </dd>
              </div>
              {event.nextTryAt ? (
                <div className="details-pair">
                  <dt>Next try</dt>
                  <dd>{formatDateTime(event.nextTryAt.toISOString())}</dd>
                </div>
              ) : null}
              {event.outcome === 'retrying' ? (
                <div className="details-pair">
                  <dt>Tries left</dt>
                  <dd className="tabular">{event.triesLeft}</dd>
                </div>
              ) : null}
            </dl>
            <details className="callback-tries">
              <summary>
                {event.tries.length === 1
                  ? '1 try'
                  : `${event.tries.length} tries`}
              </summary>
              <ol className="plain-list stack-sm">
                {event.tries.map((callback) => (
                  <li key={callback.attempt} className="callback-try">
                    <span className="tabular">
                      Try {callback.attempt},{' '}
                      {formatDateTime(callback.dateCreated)}:
                    </span>{' '}
                    {callbackOutcome(callback)}
                    {callback.error && callback.status === null ? (
                      <span className="mono muted callback-error">
                        {callback.error}
                      </span>
                    ) : null}
                  </li>
                ))}
              </ol>
            </details>
          </li>
        ))}
      </ol>
    </SectionCard>
  );
}
