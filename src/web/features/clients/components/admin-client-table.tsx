import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { ButtonLink } from '../../../components/ui/button';
import type { Client } from '../../../../shared/schemas/clients';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { pageHref } from '../../../components/ui/pager';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/format';
import { useCanCall } from '../../../lib/permissions';
import { useAdminClients } from '../api/get-admin-clients';

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

  return (
    <DataTable
      query={clients}
      rows={(data) => data.clients}
      rowKey={(client) => client.id}
      rowClassName={() => 'row-link'}
      columns={clientColumns(true, [
        {
          header: 'User ID',
          className: 'mono',
          cell: (client) =>
            canViewUsers ? (
              <Link
                className="row-link-inner"
                to={paths.adminUser(client.userId)}
              >
                {client.userId}
              </Link>
            ) : (
              client.userId
            ),
        },
      ])}
      caption={(rows, data) =>
        `Clients ${offset + 1} to ${offset + rows.length} of ${data.total}`
      }
      loadingLabel="Loading clients"
      empty={
        offset > 0
          ? 'No clients on this page.'
          : q
            ? `No clients match “${q}”.`
            : 'There are no clients yet.'
      }
      emptyAction={
        offset > 0 ? (
          <ButtonLink to={pageHref(paths.adminClients, 0, q)}>
            First page
          </ButtonLink>
        ) : null
      }
      pager={{
        label: 'Clients pages',
        offset,
        pageSize: DEFAULT_PAGE_SIZE,
        total: (data) => data.total,
        hrefFor: (to) => pageHref(paths.adminClients, to, q),
      }}
    />
  );
}

/**
 * A list of clients' columns: the name (opening the client when `canOpen`, the whole row its
 * target), the id, then `between`, then the day it was created.
 */
export function clientColumns(
  canOpen: boolean,
  between: Column<Client>[] = [],
): Column<Client>[] {
  return [
    {
      header: 'Name',
      label: null,
      cell: (client) =>
        canOpen ? (
          <Link className="row-link-target" to={paths.adminClient(client.id)}>
            {client.name}
          </Link>
        ) : (
          client.name
        ),
    },
    { header: 'Client ID', cell: (client) => client.id, className: 'mono' },
    ...between,
    {
      header: 'Created',
      cell: (client) => formatDate(client.dateCreated),
      className: 'nowrap',
    },
  ];
}
