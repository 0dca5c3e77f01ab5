import { Link } from 'react-router';
import { CLIENT_PAGE_SIZE } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/api-error';
import { formatDate } from '../../clients/components/client-card';
import { useAdminClients } from '../api/get-admin-clients';

/** The address of a page of the clients table: the offset lives in the URL. */
export function clientsPageHref(offset: number): string {
  return offset > 0
    ? `${paths.adminClients}?offset=${offset}`
    : paths.adminClients;
}

/**
 * Every client with its user id, 30 a page (spec §2, §9). A row opens the client; the user id
 * opens the user. Previous and Next page through the rest.
 */
export function AdminClientTable({ offset }: { offset: number }) {
  const clients = useAdminClients({ offset });

  if (clients.isPending) {
    return (
      <div className="stack-sm" aria-busy="true">
        <span className="sr-only">Loading clients</span>
        {Array.from({ length: 5 }, (_, index) => (
          <Skeleton key={index} height="40px" />
        ))}
      </div>
    );
  }
  if (clients.isError) {
    return <Alert tone="danger">{errorText(clients.error)}</Alert>;
  }

  const { clients: rows, total } = clients.data;
  if (rows.length === 0) {
    return (
      <div className="card empty-state">
        <p className="empty-text">
          {offset > 0
            ? 'No clients on this page.'
            : 'There are no clients yet.'}
        </p>
        {offset > 0 ? (
          <ButtonLink to={clientsPageHref(0)}>First page</ButtonLink>
        ) : null}
      </div>
    );
  }

  const first = offset + 1;
  const last = offset + rows.length;
  return (
    <div className="stack-sm">
      <div className="table-wrap card">
        <table className="table" aria-busy={clients.isPlaceholderData}>
          <caption className="sr-only">
            Clients {first} to {last} of {total}
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Client ID</th>
              <th scope="col">User ID</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((client) => (
              <tr key={client.id} className="row-link">
                <td>
                  {/* Stretched over the row: clicking anywhere on it opens the client. */}
                  <Link
                    className="row-link-target"
                    to={paths.adminClient(client.id)}
                  >
                    {client.name}
                  </Link>
                </td>
                <td className="mono">{client.id}</td>
                <td className="mono">
                  <Link
                    className="row-link-inner"
                    to={paths.adminUser(client.userId)}
                  >
                    {client.userId}
                  </Link>
                </td>
                <td className="nowrap">{formatDate(client.dateCreated)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav className="pager" aria-label="Clients pages">
        <p className="muted tabular" aria-live="polite">
          {first}–{last} of {total}
        </p>
        <div className="row">
          {offset > 0 ? (
            <ButtonLink
              size="sm"
              to={clientsPageHref(Math.max(0, offset - CLIENT_PAGE_SIZE))}
            >
              Previous
            </ButtonLink>
          ) : null}
          {last < total ? (
            <ButtonLink
              size="sm"
              to={clientsPageHref(offset + CLIENT_PAGE_SIZE)}
            >
              Next
            </ButtonLink>
          ) : null}
        </div>
      </nav>
    </div>
  );
}
