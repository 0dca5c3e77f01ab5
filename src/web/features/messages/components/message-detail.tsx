import type { ReactNode } from 'react';
import { formatMoney } from '../../../../shared/money';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/spinner';
import { errorText, isApiError } from '../../../lib/api-error';
import { useMessage } from '../api/get-message';
import { formatDateTime } from '../format-time';
import type {
  DeliveryAttempt,
  MessageDetail as Detail,
  MessageSource,
} from '../message-log-model';
import type { MessageCallback } from '../../../../shared/schemas/messages';
import { MessageStateBadge, SimulatedLabel } from './message-state-badge';
import './message-log.css';

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
      <MessageFields message={message.data} />
      <Attempts attempts={message.data.attempts} />
      {message.data.callbacks.length > 0 ? (
        <Callbacks callbacks={message.data.callbacks} />
      ) : null}
    </div>
  );
}

function MessageFields({ message }: { message: Detail }) {
  const fields: [term: string, value: ReactNode, className?: string][] = [
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
    ['Price', formatMoney(message.currency, message.price), 'tabular'],
    ['Created', formatDateTime(message.dateCreated)],
    ['Updated', formatDateTime(message.dateUpdated)],
    ['Message ID', message.id, 'mono'],
  ];
  return (
    <section className="card" aria-labelledby="message-fields-title">
      <h3 id="message-fields-title" className="section-title">
        Message
      </h3>
      <dl className="details">
        {fields.map(([term, value, className]) => (
          <div key={term} className="details-pair">
            <dt>{term}</dt>
            <dd className={className}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Attempts({ attempts }: { attempts: DeliveryAttempt[] }) {
  return (
    <section className="card" aria-labelledby="message-attempts-title">
      <h3 id="message-attempts-title" className="section-title">
        Attempts
      </h3>
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
    </section>
  );
}

/** Each POST of a state change to the client's status callback URL, oldest first. */
function Callbacks({ callbacks }: { callbacks: MessageCallback[] }) {
  return (
    <section className="card" aria-labelledby="message-callbacks-title">
      <h3 id="message-callbacks-title" className="section-title">
        Status callbacks
      </h3>
      <ol className="plain-list attempt-list">
        {callbacks.map((callback, index) => (
          <li key={`${callback.dateCreated}-${index}`} className="attempt">
            <div className="attempt-head">
              <span className="attempt-method">
                {callback.state} event, try {callback.attempt}
              </span>
            </div>
            <dl className="details">
              <div className="details-pair">
                <dt>Answer</dt>
                <dd className={callback.error ? 'is-danger' : undefined}>
                  {callback.status === null
                    ? (callback.error ?? 'No answer')
                    : `HTTP ${callback.status}${callback.error ? ` (${callback.error})` : ''}`}
                </dd>
              </div>
              <div className="details-pair">
                <dt>Time</dt>
                <dd>{formatDateTime(callback.dateCreated)}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ol>
    </section>
  );
}
