import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { offsetParam } from '../../components/ui/pager';
import { SearchBox } from '../../components/ui/search-box';
import { AdminUserTable } from '../../features/users/components/admin-user-table';

export function AdminUsersRoute() {
  const [search] = useSearchParams();
  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone who can sign in. Open a user to edit the profile, create clients for them or change their roles."
      />
      <SearchBox
        label="Search users"
        hint="Part of an e-mail, a name or an organization"
      />
      <AdminUserTable
        offset={offsetParam(search.get('offset'))}
        q={search.get('q') ?? ''}
      />
    </>
  );
}
