import { formatMoney } from '../../../../shared/money';
import type { Column } from '../../../components/ui/data-table';
import { usePanel } from '../../../components/ui/side-panel';
import { formatDateTime } from '../../../lib/format';
import type { LoggedMessage, MessageSource } from '../message-log-model';
import { MessageDetail } from './message-detail';
import { MessageStateBadge, SimulatedLabel } from './message-state-badge';
import './message-log.css';

/**
 * The columns of a DataTable of messages (its class `message-table`); the recipient opens the
 * message's side panel (the whole row is the click target). `compact` keeps date, recipient,
 * state, method and price, for the admin page. On a phone a row is a small card (recipient and
 * state, date and price, then the rest with their labels; message-log.css).
 */
export function useMessageColumns(
  source: MessageSource,
  compact = false,
): Column<LoggedMessage>[] {
  const panel = usePanel();
  const open = (message: LoggedMessage) =>
    panel.showPanel(<MessageDetail {...source} messageId={message.id} />, {
      title: `Message to ${message.recipient}`,
    });
  const columns: Array<Column<LoggedMessage> | false> = [
    {
      header: 'Date',
      label: null,
      className: 'nowrap message-date',
      cell: (message) => formatDateTime(message.dateCreated),
    },
    {
      header: 'Recipient',
      label: null,
      className: 'nowrap tabular message-recipient',
      // Stretched over the row: clicking anywhere on it opens the message.
      cell: (message) => (
        <button
          type="button"
          className="link-button row-link-target"
          onClick={() => open(message)}
        >
          {message.recipient}
        </button>
      ),
    },
    !compact && {
      header: 'Sender',
      label: 'From',
      className: 'nowrap message-sender',
      cell: (message) => message.sender,
    },
    {
      header: 'State',
      label: null,
      className: 'nowrap message-state',
      cell: (message) => <MessageStateBadge state={message.state} />,
    },
    !compact && {
      header: 'Segments',
      numeric: true,
      className: 'message-segments',
      cell: (message) => message.segments,
    },
    {
      header: 'Price',
      label: null,
      numeric: true,
      className: 'message-price',
      cell: (message) => formatMoney(message.currency, message.price),
    },
    {
      header: 'Method',
      className: 'nowrap message-method',
      cell: (message) =>
        message.deliveryMethod ? (
          <span className="method-cell">
            {message.deliveryMethod}
            {message.simulated ? <SimulatedLabel /> : null}
          </span>
        ) : (
          <span className="muted">Not routed yet</span>
        ),
    },
  ];
  return columns.filter((column) => column !== false);
}
