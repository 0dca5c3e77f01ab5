import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { ButtonLink } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/data-table';
import { pageHref } from '../../../components/ui/pager';
import { paths } from '../../../config/paths';
import { useAdminUsers } from '../api/get-admin-users';

/** A user's name as shown in lists: first and last name, else the e-mail. */
export function displayName(user: {
  firstName: string;
  lastName: string;
  email: string;
}): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/** Every user (or those matching `q`), newest first, 30 a page; a row opens the user (spec §2). */
export function AdminUserTable({
  offset,
  q = '',
}: {
  offset: number;
  q?: string;
}) {
  const users = useAdminUsers(offset, q);

  return (
    <DataTable
      query={users}
      rows={(data) => data.users}
      rowKey={(user) => user.id}
      rowClassName={() => 'row-link'}
      columns={[
        {
          header: 'Name',
          label: null,
          // Stretched over the row: clicking anywhere on it opens the user.
          cell: (user) => (
            <Link className="row-link-target" to={paths.adminUser(user.id)}>
              {displayName(user)}
            </Link>
          ),
        },
        { header: 'Email', cell: (user) => user.email },
        { header: 'Organization', cell: (user) => user.organization },
        { header: 'User ID', cell: (user) => user.id, className: 'mono' },
      ]}
      caption={(rows, data) =>
        `Users ${offset + 1} to ${offset + rows.length} of ${data.total}`
      }
      loadingLabel="Loading users"
      empty={
        q && offset === 0 ? `No users match “${q}”.` : 'No users on this page.'
      }
      emptyAction={
        <ButtonLink to={pageHref(paths.adminUsers, 0, q)}>
          First page
        </ButtonLink>
      }
      pager={{
        label: 'Users pages',
        offset,
        pageSize: DEFAULT_PAGE_SIZE,
        total: (data) => data.total,
        hrefFor: (to) => pageHref(paths.adminUsers, to, q),
      }}
    />
  );
}
