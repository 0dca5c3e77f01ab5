import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/spinner';
import { errorText, isApiError } from '../../../lib/api-error';
import { formatDateTime, formatPhoneNumber } from '../../../lib/format';
import { stateText } from '../../../lib/message-states';
import { THREAD_PAGE_SIZE, useThread } from '../api/get-thread';
import type {
  ConversationItem,
  ConversationThread,
} from '../../../../shared/schemas/inbound';
import './conversations.css';

/**
 * The conversation with `number`: its latest messages, oldest first, both directions in one
 * list (each says in words whether it was received or sent, and a sent one its state), in a
 * scrolled log that opens at the newest; earlier messages on request. `reply` renders what
 * goes under it, given the thread (the reply box needs its opt-out state).
 */
export function ConversationThread({
  clientId,
  number,
  reply,
  asAdmin = false,
}: {
  clientId: string;
  /** The remote number, digits only. */
  number: string;
  reply: (thread: ConversationThread) => ReactNode;
  /** Read through staff's calls (ROLE_CLIENT_VIEW). */
  asAdmin?: boolean;
}) {
  const [shown, setShown] = useState(THREAD_PAGE_SIZE);
  const thread = useThread(clientId, number, shown, asAdmin);
  const shownNumber = formatPhoneNumber(number);

  if (thread.isPending) {
    return (
      <div className="stack-sm" aria-busy="true">
        <span className="sr-only">Loading the conversation</span>
        <Skeleton height="56px" width="60%" />
        <Skeleton height="56px" width="50%" className="skeleton-end" />
        <Skeleton height="56px" width="55%" />
        <Skeleton height="120px" />
      </div>
    );
  }
  if (thread.isError) {
    return (
      <div className="stack-sm">
        <Alert tone="danger">
          {isApiError(thread.error, 404)
            ? `There is no conversation with ${shownNumber}.`
            : `The conversation could not be loaded. ${errorText(thread.error)}`}
        </Alert>
        {isApiError(thread.error, 404) ? null : (
          <div>
            <Button onClick={() => void thread.refetch()}>Try again</Button>
          </div>
        )}
      </div>
    );
  }
  const data = thread.data;
  const earlier = data.offset;
  return (
    <div className="stack">
      {earlier > 0 ? (
        <div className="row">
          <Button
            size="sm"
            pending={thread.isPlaceholderData}
            onClick={() => setShown((count) => count + THREAD_PAGE_SIZE)}
          >
            Show earlier messages
          </Button>
          <span className="muted">
            {earlier} earlier {earlier === 1 ? 'message' : 'messages'}
          </span>
        </div>
      ) : null}
      {data.items.length === 0 ? (
        <p className="card muted">No messages with {shownNumber} yet.</p>
      ) : (
        <MessageLog label={`Messages with ${shownNumber}`} items={data.items} />
      )}
      {reply(data)}
    </div>
  );
}

/**
 * The messages as a chat log (role "log": a new message is read out politely). Focusable, so
 * the keyboard can scroll it; it opens at the newest message and follows new ones, but stays
 * put when earlier messages are added above.
 */
function MessageLog({
  label,
  items,
}: {
  label: string;
  items: ConversationItem[];
}) {
  const log = useRef<HTMLDivElement>(null);
  const newest = items.at(-1)?.id;
  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [newest]);
  return (
    <div
      ref={log}
      role="log"
      aria-label={label}
      // A scrolled region must be reachable by the keyboard to be scrolled by it (WCAG 2.1.1;
      // axe's scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className="thread-log"
    >
      <ol className="plain-list thread">
        {items.map((item) => (
          <li
            key={`${item.direction}-${item.id}`}
            className={`bubble is-${item.direction}`}
          >
            <p className="bubble-meta">
              {item.direction === 'inbound' ? 'Received' : 'Sent'}
              {' · '}
              <time dateTime={item.date}>{formatDateTime(item.date)}</time>
              {item.direction === 'outbound' && item.state
                ? ` · ${stateText(item.state)}`
                : ''}
            </p>
            <p className="bubble-body">{item.body}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
