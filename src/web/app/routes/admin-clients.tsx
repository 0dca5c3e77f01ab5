import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { AdminClientTable } from '../../features/admin-clients/components/admin-client-table';

/** A page offset from the URL: a whole number, anything else is the first page. */
function offsetFrom(value: string | null): number {
  const offset = Number(value);
  return Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
}

export function AdminClientsRoute() {
  const [search] = useSearchParams();
  return (
    <>
      <PageHeader
        title="Clients"
        description="Every customer's API clients. Open a client to edit it, give free credit or set its route splits."
      />
      <AdminClientTable offset={offsetFrom(search.get('offset'))} />
    </>
  );
}
