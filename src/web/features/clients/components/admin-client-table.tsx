import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { Pager, pageHref } from '../../../components/ui/pager';
import { TableSkeleton } from '../../../components/ui/table-skeleton';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/api-error';
import { formatDate } from '../../../lib/format';
import { useCanCall } from '../../../lib/permissions';
import { useAdminClients } from '../api/get-admin-clients';
import '../../../components/ui/table.css';

/**
 * Every client (or those matching `q`) with its user id, newest first, 30 a page (spec §2, §9).
 * A row opens the client; the user id opens the user (for those who may view users). Previous
 * and Next page through the rest.
 */
export function AdminClientTable({
  offset,
  q = '',
}: {
  offset: number;
  q?: string;
}) {
  const clients = useAdminClients({ offset, q });
  const canViewUsers = useCanCall({ family: 'USER', verb: 'VIEW' });

  if (clients.isPending) {
    return <TableSkeleton label="Loading clients" />;
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
            : q
              ? `No clients match “${q}”.`
              : 'There are no clients yet.'}
        </p>
        {offset > 0 ? (
          <ButtonLink to={pageHref(paths.adminClients, 0, q)}>
            First page
          </ButtonLink>
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
                  {canViewUsers ? (
                    <Link
                      className="row-link-inner"
                      to={paths.adminUser(client.userId)}
                    >
                      {client.userId}
                    </Link>
                  ) : (
                    client.userId
                  )}
                </td>
                <td className="nowrap">{formatDate(client.dateCreated)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager
        label="Clients pages"
        offset={offset}
        shown={rows.length}
        total={total}
        pageSize={DEFAULT_PAGE_SIZE}
        hrefFor={(to) => pageHref(paths.adminClients, to, q)}
      />
    </div>
  );
}
