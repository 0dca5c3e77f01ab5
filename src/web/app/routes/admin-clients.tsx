import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { offsetParam } from '../../components/ui/pager';
import { SearchBox } from '../../components/ui/search-box';
import { AdminClientTable } from '../../features/clients/components/admin-client-table';

export function AdminClientsRoute() {
  const [search] = useSearchParams();
  return (
    <>
      <PageHeader
        title="Clients"
        description="Every customer's API clients. Open a client to edit it, give free credit or set its route splits."
      />
      <SearchBox
        label="Search clients"
        hint="Part of a name, or a whole client ID"
      />
      <AdminClientTable
        offset={offsetParam(search.get('offset'))}
        q={search.get('q') ?? ''}
      />
    </>
  );
}
