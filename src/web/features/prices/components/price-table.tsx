import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import type { Price, PriceList } from '../../../../shared/schemas/prices';
import { pageHref } from '../../../components/ui/pager';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { formatPrice } from '../../../lib/format';
import { usePrices } from '../api/get-prices';
import './prices.css';

/** A blocked destination says so in words, not by colour alone. */
export function PriceStatus({ price }: { price: Pick<Price, 'blocked'> }) {
  return price.blocked ? (
    <span className="price-status is-blocked">Blocked</span>
  ) : (
    <span className="price-status">Open</span>
  );
}

/** Where a destination without an entry of its own lands: the default price, stated. */
export function defaultPriceText(list: PriceList): string {
  return `Destinations not listed cost ${formatPrice(list.currency, list.defaultPricePerSegment)} per segment and are open.`;
}

function priceColumns(currency: string): Column<Price>[] {
  return [
    {
      header: 'Prefix',
      // The value alone in monospace: on a phone's card the label stays in the body font.
      cell: (price) => <span className="mono">{price.prefix}</span>,
    },
    { header: 'Destination', cell: (price) => price.name },
    {
      header: 'Price per segment',
      cell: (price) => formatPrice(currency, price.pricePerSegment),
      numeric: true,
      className: 'amount nowrap',
    },
    {
      header: 'Status',
      cell: (price) => <PriceStatus price={price} />,
    },
  ];
}

/**
 * The price list a page at a time, searched by `q` (both in the URL), with the default price
 * stated above it. `actions` adds a column (staff's Edit and Delete).
 */
export function PriceTable({
  path,
  q,
  offset,
  actions,
}: {
  path: string;
  q: string;
  offset: number;
  actions?: Column<Price>;
}) {
  const prices = usePrices({ q, offset });
  const columns = priceColumns(prices.data?.currency ?? '');
  return (
    <div className="stack-sm">
      {prices.data ? (
        <p className="muted">{defaultPriceText(prices.data)}</p>
      ) : null}
      <DataTable
        query={prices}
        rows={(data) => data.prices}
        rowKey={(price) => price.prefix}
        className="price-table"
        columns={actions ? [...columns, actions] : columns}
        caption={(rows, data) =>
          `Prices ${offset + 1} to ${offset + rows.length} of ${data.total}`
        }
        loadingLabel="Loading the prices"
        errorPrefix="The prices could not be loaded: "
        empty={
          q
            ? 'No destination matches this search.'
            : 'No destination has a price of its own yet: every one costs the default price.'
        }
        rowClassName={(price) => (price.blocked ? 'is-blocked' : undefined)}
        pager={{
          label: 'Price list pages',
          offset,
          pageSize: DEFAULT_PAGE_SIZE,
          total: (data) => data.total,
          hrefFor: (to) => pageHref(path, to, q),
        }}
      />
    </div>
  );
}
