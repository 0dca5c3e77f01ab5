import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { DataTable, type Column, type TableQuery } from './data-table';

interface Fruit {
  id: string;
  name: string;
  price: number;
}
interface Page {
  fruits: Fruit[];
  total: number;
}

const columns: Column<Fruit>[] = [
  { header: 'Name', label: null, cell: (fruit) => fruit.name },
  { header: 'Price', numeric: true, cell: (fruit) => fruit.price.toFixed(2) },
  { header: 'Code', label: 'Id', cell: (fruit) => fruit.id },
];

function query(over: Partial<TableQuery<Page>>): TableQuery<Page> {
  return {
    isPending: false,
    isError: false,
    isPlaceholderData: false,
    error: null,
    data: undefined,
    refetch: vi.fn(),
    ...over,
  };
}

const page: Page = {
  fruits: [
    { id: 'f1', name: 'Apple', price: 1 },
    { id: 'f2', name: 'Pear', price: 2.5 },
  ],
  total: 12,
};

function renderTable(
  state: TableQuery<Page>,
  extra: { onPage?: (offset: number) => void; card?: boolean } = {},
) {
  return render(
    <MemoryRouter>
      <DataTable
        query={state}
        rows={(data) => data.fruits}
        rowKey={(fruit) => fruit.id}
        columns={columns}
        caption={(rows, data) => `Fruits 1 to ${rows.length} of ${data.total}`}
        loadingLabel="Loading fruits"
        errorPrefix="The fruits could not be loaded. "
        empty="No fruits yet."
        emptyAction={<a href="/new">New fruit</a>}
        card={extra.card}
        pager={{
          label: 'Fruit pages',
          offset: 0,
          pageSize: 2,
          total: (data) => data.total,
          onPage: extra.onPage ?? (() => {}),
        }}
      />
    </MemoryRouter>,
  );
}

describe('DataTable', () => {
  it('shows grey rows announced as loading while the query is pending', () => {
    const { container } = renderTable(query({ isPending: true }));
    expect(screen.getByText('Loading fruits')).toBeInTheDocument();
    expect(container.querySelector('[aria-busy="true"]')).not.toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('on an error says why and Try again refetches', async () => {
    const state = query({
      isError: true,
      error: new ApiError(500, { message: 'Down for a moment' }),
    });
    renderTable(state);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The fruits could not be loaded. Down for a moment',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(state.refetch).toHaveBeenCalledOnce();
  });

  it('with no rows shows the empty text and its action, no table and no pager', () => {
    renderTable(query({ data: { fruits: [], total: 0 } }));
    expect(screen.getByText('No fruits yet.')).toHaveClass('empty-text');
    expect(screen.getByRole('link', { name: 'New fruit' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('inside a card already, the empty text is plain', () => {
    renderTable(query({ data: { fruits: [], total: 0 } }), { card: false });
    expect(screen.getByText('No fruits yet.')).toHaveClass('muted');
  });

  it('renders headers, cells with their phone labels, the caption and the pager', async () => {
    const onPage = vi.fn();
    renderTable(query({ data: page, isPlaceholderData: true }), { onPage });
    const table = screen.getByRole('table', { name: 'Fruits 1 to 2 of 12' });
    expect(table).toHaveAttribute('aria-busy', 'true');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('NamePriceCode');
    expect(within(rows[0]!).getByText('Price')).toHaveClass('numeric');
    const cells = within(rows[2]!).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'Pear',
      '2.50',
      'f2',
    ]);
    // The row's title has no label; the others say what they are, or their own label.
    expect(cells[0]).not.toHaveAttribute('data-label');
    expect(cells[1]).toHaveAttribute('data-label', 'Price');
    expect(cells[1]).toHaveClass('numeric');
    expect(cells[2]).toHaveAttribute('data-label', 'Id');

    const pager = screen.getByRole('navigation', { name: 'Fruit pages' });
    expect(pager).toHaveTextContent('1–2 of 12');
    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenCalledWith(2);
  });
});
