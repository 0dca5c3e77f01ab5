import { Link } from 'react-router';
import type {
  Client,
  ClientKeyUsage,
} from '../../../../shared/schemas/clients';
import { paths } from '../../../config/paths';
import { cx } from '../../../lib/cx';
import { formatDate, formatLastUsed } from '../../../lib/format';
import './clients.css';

/** A client as its owner sees it; `secretLastUsedAt` arrives with the accountability API. */
function ClientDetails({
  client,
}: {
  client: Client & Partial<ClientKeyUsage>;
}) {
  return (
    <dl className="details">
      <dt>Client ID</dt>
      <dd className="mono">{client.id}</dd>
      <dt>Created</dt>
      <dd>{formatDate(client.dateCreated)}</dd>
      <dt>Secret last used</dt>
      <dd>{formatLastUsed(client.secretLastUsedAt)}</dd>
    </dl>
  );
}

/** A client card that links to the client's page. */
export function ClientCardLink({
  client,
  current = false,
}: {
  client: Client;
  current?: boolean;
}) {
  return (
    <Link
      to={paths.client(client.id)}
      className={cx('card', 'card-link', current && 'is-current')}
    >
      <div className="row">
        <span className="card-title">{client.name}</span>
        {current ? <span className="badge">Current</span> : null}
      </div>
      <ClientDetails client={client} />
    </Link>
  );
}
