import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { ButtonLink } from '../../../components/ui/button';
import { Pager, pageHref } from '../../../components/ui/pager';
import { TableSkeleton } from '../../../components/ui/table-skeleton';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/api-error';
import { useAdminUsers } from '../api/get-admin-users';
import '../../../components/ui/table.css';

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

  if (users.isPending) return <TableSkeleton label="Loading users" />;
  if (users.isError) {
    return <Alert tone="danger">{errorText(users.error)}</Alert>;
  }
  const { users: rows, total } = users.data;
  if (rows.length === 0) {
    return (
      <div className="card empty-state">
        <p className="empty-text">
          {q && offset === 0
            ? `No users match “${q}”.`
            : 'No users on this page.'}
        </p>
        <ButtonLink to={pageHref(paths.adminUsers, 0, q)}>
          First page
        </ButtonLink>
      </div>
    );
  }
  return (
    <div className="stack-sm">
      <div className="table-wrap card">
        <table className="table" aria-busy={users.isPlaceholderData}>
          <caption className="sr-only">
            Users {offset + 1} to {offset + rows.length} of {total}
          </caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Organization</th>
              <th scope="col">User ID</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((user) => (
              <tr key={user.id} className="row-link">
                <td>
                  {/* Stretched over the row: clicking anywhere on it opens the user. */}
                  <Link
                    className="row-link-target"
                    to={paths.adminUser(user.id)}
                  >
                    {displayName(user)}
                  </Link>
                </td>
                <td>{user.email}</td>
                <td>{user.organization}</td>
                <td className="mono">{user.id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager
        label="Users pages"
        offset={offset}
        shown={rows.length}
        total={total}
        pageSize={DEFAULT_PAGE_SIZE}
        hrefFor={(to) => pageHref(paths.adminUsers, to, q)}
      />
    </div>
  );
}
