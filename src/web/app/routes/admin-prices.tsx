import { useSearchParams } from 'react-router';
import { offsetParam } from '../../components/ui/pager';
import { paths } from '../../config/paths';
import { AdminPrices } from '../../features/prices/components/admin-prices';

/** /admin/prices: the price list by destination, kept by holders of ROLE_PRICE_ADMIN. */
export function AdminPricesRoute() {
  const [search] = useSearchParams();
  return (
    <AdminPrices
      path={paths.adminPrices}
      q={search.get('q') ?? ''}
      offset={offsetParam(search.get('offset'))}
    />
  );
}
