import { formatMoney } from '../../../../shared/money';
import { usePanel } from '../../../components/ui/side-panel';
import { formatDateTime } from '../format-time';
import type { LoggedMessage, MessageSource } from '../message-log-model';
import { MessageDetail } from './message-detail';
import { MessageStateBadge, SimulatedLabel } from './message-state-badge';
import './message-log.css';
import '../../../components/ui/table.css';

/**
 * Messages as table rows; the recipient opens the message's side panel (the whole row is the
 * click target). `compact` keeps date, recipient, state, method and price, for the admin page.
 * The table scrolls inside its card on a narrow screen, never the page.
 */
export function MessageTable({
  source,
  messages,
  caption,
  busy,
  compact = false,
}: {
  source: MessageSource;
  messages: LoggedMessage[];
  caption: string;
  busy: boolean;
  compact?: boolean;
}) {
  const panel = usePanel();
  const open = (message: LoggedMessage) =>
    panel.showPanel(<MessageDetail {...source} messageId={message.id} />, {
      title: `Message to ${message.recipient}`,
    });

  return (
    <div className="table-wrap card">
      <table className="table message-table" aria-busy={busy}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Recipient</th>
            {compact ? null : <th scope="col">Sender</th>}
            <th scope="col">State</th>
            {compact ? null : (
              <th scope="col" className="numeric">
                Segments
              </th>
            )}
            <th scope="col" className="numeric">
              Price
            </th>
            <th scope="col">Method</th>
          </tr>
        </thead>
        <tbody>
          {messages.map((message) => (
            <tr key={message.id} className="row-link">
              <td className="nowrap message-date">
                {formatDateTime(message.dateCreated)}
              </td>
              <td className="nowrap tabular message-recipient">
                {/* Stretched over the row: clicking anywhere on it opens the message. */}
                <button
                  type="button"
                  className="link-button row-link-target"
                  onClick={() => open(message)}
                >
                  {message.recipient}
                </button>
              </td>
              {compact ? null : (
                <td className="nowrap message-sender" data-label="From">
                  {message.sender}
                </td>
              )}
              <td className="nowrap message-state">
                <MessageStateBadge state={message.state} />
              </td>
              {compact ? null : (
                <td
                  className="numeric tabular message-segments"
                  data-label="Segments"
                >
                  {message.segments}
                </td>
              )}
              <td className="numeric tabular message-price">
                {formatMoney(message.currency, message.price)}
              </td>
              <td className="nowrap message-method" data-label="Method">
                {message.deliveryMethod ? (
                  <span className="method-cell">
                    {message.deliveryMethod}
                    {message.simulated ? <SimulatedLabel /> : null}
                  </span>
                ) : (
                  <span className="muted">Not routed yet</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
