import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { offsetParam } from '../../components/ui/pager';
import { SearchBox } from '../../components/ui/search-box';
import { paths } from '../../config/paths';
import { PriceTable } from '../../features/prices/components/price-table';

/** /billing/prices: what a segment costs to each destination, and which ones are closed. */
export function BillingPricesRoute() {
  const [search] = useSearchParams();
  return (
    <>
      <PageHeader
        title="Prices"
        description="What one SMS segment costs to each destination, taken from your balance when it is sent. The longest matching prefix of the recipient's number sets the price."
      />
      <SearchBox
        label="Search prices"
        hint="A prefix such as 44, or part of a destination's name"
      />
      <PriceTable
        path={paths.billingPrices}
        q={search.get('q') ?? ''}
        offset={offsetParam(search.get('offset'))}
      />
    </>
  );
}
