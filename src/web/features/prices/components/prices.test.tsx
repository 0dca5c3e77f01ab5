import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Price, PriceList } from '../../../../shared/schemas/prices';
import { mockApi, type Route } from '../../../testing/mock-api';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeUser } from '../../../testing/test-data';
import { PRICE_CSV_HEADER } from '../../../../shared/price-csv';

const uk: Price = {
  prefix: '44',
  name: 'United Kingdom',
  pricePerSegment: 0.0725,
  blocked: false,
};
const premium: Price = {
  prefix: '4490',
  name: 'UK premium',
  pricePerSegment: 1.5,
  blocked: true,
};

function priceList(
  prices: Price[],
  overrides: Partial<PriceList> = {},
): PriceList {
  return {
    currency: 'EUR',
    defaultPricePerSegment: 0.05,
    total: prices.length,
    count: 30,
    offset: 0,
    prices,
    ...overrides,
  };
}

/** The price list answering each search: prefixes starting with q or names holding it. */
const pricesRoute =
  (prices: Price[], overrides: Partial<PriceList> = {}): Route =>
  ({ search }) => {
    const q = new URLSearchParams(search).get('q')?.toLowerCase() ?? '';
    return {
      body: priceList(
        prices.filter(
          (price) =>
            price.prefix.startsWith(q) || price.name.toLowerCase().includes(q),
        ),
        overrides,
      ),
    };
  };

const staff = makeUser({ roles: ['ROLE_PRICE_ADMIN'] });

describe('Prices, the customer page', () => {
  it('is linked from the Balance page and lists prices in the currency with the default price and blocked ones in words', async () => {
    mockApi({
      ...shellRoutes(),
      'GET /api/prices': pricesRoute([uk, premium]),
    });
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.click(await screen.findByRole('link', { name: 'Prices' }));
    await waitFor(() => expect(currentPath()).toBe('/billing/prices'));
    const table = await screen.findByRole('table', {
      name: /Prices 1 to 2 of 2/,
    });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('44United KingdomEUR 0.0725Open');
    expect(rows[2]).toHaveTextContent('4490UK premiumEUR 1.50Blocked');
    expect(
      screen.getByText(
        'Destinations not listed cost EUR 0.05 per segment and are open.',
      ),
    ).toBeVisible();
  });

  it('searches as the user types (debounced, in the URL) and pages with the shared pager', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      'GET /api/prices': pricesRoute([uk, premium], { total: 45 }),
    });
    const { user } = renderApp('/billing/prices', { loggedIn: true });
    await screen.findByRole('table', { name: /Prices/ });
    expect(
      screen.getByRole('navigation', { name: 'Price list pages' }),
    ).toHaveTextContent('1–2 of 45');
    await user.type(
      screen.getByRole('searchbox', { name: 'Search prices' }),
      'premium',
    );
    await waitFor(() =>
      expect(currentPath()).toBe('/billing/prices?q=premium'),
    );
    await screen.findByRole('table', { name: /Prices 1 to 1 of 45/ });
    const asked = requests.filter((r) => r.path === '/api/prices');
    // One call for the page and one for the whole word, not one per key.
    expect(asked.map((r) => new URLSearchParams(r.search).get('q'))).toEqual([
      null,
      'premium',
    ]);
    await user.click(screen.getByRole('link', { name: 'Next' }));
    await waitFor(() =>
      expect(currentPath()).toBe('/billing/prices?q=premium&offset=30'),
    );
  });

  it('says when nothing matches', async () => {
    mockApi({ ...shellRoutes(), 'GET /api/prices': pricesRoute([]) });
    renderApp('/billing/prices?q=999', { loggedIn: true });
    expect(
      await screen.findByText('No destination matches this search.'),
    ).toBeVisible();
  });
});

describe('Prices, the admin screen', () => {
  function adminRoutes(extra: Record<string, Route> = {}) {
    return mockApi({
      'GET /api/users/me': { body: staff },
      'GET /api/prices': pricesRoute([uk, premium]),
      ...extra,
    });
  }

  it('is in the sidebar for ROLE_PRICE_ADMIN only, and /admin opens it for them', async () => {
    adminRoutes();
    renderApp('/admin', { loggedIn: true });
    await waitFor(() => expect(currentPath()).toBe('/admin/prices'));
    expect(await screen.findByRole('link', { name: 'Prices' })).toBeVisible();
    expect(
      await screen.findByRole('heading', { name: 'Prices', level: 1 }),
    ).toBeVisible();
  });

  it('adds an entry through the shared schema, then saves it with PUT', async () => {
    const { requests } = adminRoutes({
      'PUT /api/admin/prices/33': ({ body }) => ({
        body: { prefix: '33', ...(body as object) },
      }),
    });
    const { user } = renderApp('/admin/prices', { loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Add Price' }));
    expect(screen.getByLabelText('Prefix')).toHaveFocus();
    await user.type(screen.getByLabelText('Prefix'), '+33');
    await user.type(screen.getByLabelText('Name'), 'France');
    await user.type(screen.getByLabelText('Price per segment'), '0.1234567');
    await user.click(screen.getByRole('button', { name: 'Save Price' }));
    expect(screen.getByLabelText('Prefix')).toHaveAccessibleDescription(
      /Prefix must be 1 to 15 digits/,
    );
    expect(
      screen.getByLabelText('Price per segment'),
    ).toHaveAccessibleDescription(/at most 6 decimal places/);
    await user.clear(screen.getByLabelText('Prefix'));
    await user.type(screen.getByLabelText('Prefix'), '33');
    await user.clear(screen.getByLabelText('Price per segment'));
    await user.type(screen.getByLabelText('Price per segment'), '0.0725');
    await user.click(
      screen.getByRole('checkbox', { name: /Blocked: nobody can send/ }),
    );
    await user.click(screen.getByRole('button', { name: 'Save Price' }));
    expect(
      await screen.findByText('The price has been saved'),
    ).toBeInTheDocument();
    const put = requests.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({
      name: 'France',
      pricePerSegment: '0.0725',
      blocked: true,
    });
    expect(screen.queryByLabelText('Prefix')).toBeNull();
  });

  it('edits an entry: the prefix is fixed, the server refusal is shown in the form', async () => {
    const { requests } = adminRoutes({
      'PUT /api/admin/prices/44': {
        status: 400,
        body: { statusCode: 400, message: 'body.name is too long' },
      },
    });
    const { user } = renderApp('/admin/prices', { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Edit the price of 44' }),
    );
    expect(screen.getByLabelText('Prefix')).toHaveValue('44');
    expect(screen.getByLabelText('Name')).toHaveFocus();
    expect(screen.getByLabelText('Prefix')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Price per segment')).toHaveValue('0.0725');
    await user.click(screen.getByRole('button', { name: 'Save Price' }));
    expect(await screen.findByLabelText('Name')).toHaveAccessibleDescription(
      'Name is too long',
    );
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });

  it('deletes an entry after the confirmation, and Cancel deletes nothing', async () => {
    const { requests } = adminRoutes({
      'DELETE /api/admin/prices/4490': { status: 204 },
    });
    const { user } = renderApp('/admin/prices', { loggedIn: true });
    const remove = await screen.findByRole('button', {
      name: 'Delete the price of 4490',
    });
    await user.click(remove);
    const question =
      'Are you sure you want to delete the price of 4490 (UK premium)? Its destination will cost the default price.';
    await user.click(
      within(screen.getByRole('alertdialog', { name: question })).getByRole(
        'button',
        { name: 'Cancel' },
      ),
    );
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(remove);
    await user.click(
      within(screen.getByRole('alertdialog', { name: question })).getByRole(
        'button',
        { name: 'OK' },
      ),
    );
    expect(
      await screen.findByText('The price has been deleted'),
    ).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  const currentCsv = [
    PRICE_CSV_HEADER,
    '44,United Kingdom,0.0725,false',
    '4490,UK premium,1.5,true',
    '33,France,0.08,false',
  ].join('\r\n');

  const upload = async (
    user: ReturnType<typeof renderApp>['user'],
    name: string,
    lines: string[],
  ) => {
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    expect(screen.getByLabelText('Price list CSV file')).toHaveFocus();
    await user.upload(
      screen.getByLabelText('Price list CSV file'),
      new File([lines.join('\n')], name, { type: 'text/csv' }),
    );
    return screen.findByRole('region', { name: 'Import preview' });
  };

  it('previews an import against the list as it is: added, changed, removed, unchanged', async () => {
    const { requests } = adminRoutes({
      'GET /api/admin/prices.csv': { body: currentCsv },
    });
    const { user } = renderApp('/admin/prices', { loggedIn: true });
    const preview = await upload(user, 'new-prices.csv', [
      PRICE_CSV_HEADER,
      '44,United Kingdom,0.07,false',
      '4490,UK premium,1.50,true',
      '49,Germany,0.08,false',
    ]);
    expect(within(preview).getByRole('status')).toHaveTextContent(
      'new-prices.csv: 1 added, 1 changed, 1 removed, 1 unchanged',
    );
    expect(
      within(preview).getByRole('table', { name: 'Added: 1' }),
    ).toHaveTextContent('49Germany');
    expect(
      within(preview).getByRole('table', { name: 'Changed: 1' }),
    ).toHaveTextContent('United Kingdom: 0.0725United Kingdom: 0.07');
    expect(
      within(preview).getByRole('table', { name: 'Removed: 1' }),
    ).toHaveTextContent('33France');
    expect(screen.getByRole('button', { name: 'Apply Import' })).toBeEnabled();
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('lists every bad line with its number before anything is sent; Apply stays off', async () => {
    const { requests } = adminRoutes({
      'GET /api/admin/prices.csv': { body: currentCsv },
    });
    const { user } = renderApp('/admin/prices', { loggedIn: true });
    const preview = await upload(user, 'bad.csv', [
      PRICE_CSV_HEADER,
      '44,United Kingdom,0.07,false',
      '49x,Bad,0.08,false',
      '33,France,0.08,perhaps',
    ]);
    expect(within(preview).getByRole('alert')).toHaveTextContent(
      'bad.csv would be refused: fix these 2 lines and choose the file again.',
    );
    const lines = within(preview).getAllByRole('listitem');
    expect(lines[0]).toHaveTextContent(/^Line 3: Prefix must be/);
    expect(lines[1]).toHaveTextContent('Line 4: Blocked must be true or false');
    expect(within(preview).queryByRole('table')).toBeNull();
    expect(screen.getByRole('button', { name: 'Apply Import' })).toBeDisabled();
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('applies a good file with PUT /api/admin/prices.csv, and shows the server naming a bad line', async () => {
    let answer: { status: number; body: unknown } = {
      status: 400,
      body: { statusCode: 400, message: 'Line 3: name is required' },
    };
    const { requests } = adminRoutes({
      'GET /api/admin/prices.csv': { body: currentCsv },
      'PUT /api/admin/prices.csv': () => answer,
    });
    const { user } = renderApp('/admin/prices', { loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }));
    const csv = `${PRICE_CSV_HEADER}\n44,United Kingdom,0.07,false\n`;
    await user.upload(
      screen.getByLabelText('Price list CSV file'),
      new File([csv], 'prices.csv', { type: 'text/csv' }),
    );
    const apply = await screen.findByRole('button', { name: 'Apply Import' });
    await waitFor(() => expect(apply).toBeEnabled());
    await user.click(apply);
    expect(
      await screen.findByText(
        'The import was refused: Line 3: name is required',
      ),
    ).toBeVisible();
    answer = { status: 200, body: { count: 1 } };
    await user.click(apply);
    expect(
      await screen.findByText('The price list has been replaced: 1 entries'),
    ).toBeInTheDocument();
    const puts = requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(2);
    expect(puts[1]?.headers.get('content-type')).toBe('text/csv');
    expect(puts[1]?.body).toBe(csv);
  });

  it('exports the list as prices.csv', async () => {
    const { requests } = adminRoutes({
      'GET /api/admin/prices.csv': { body: currentCsv },
    });
    const { user } = renderApp('/admin/prices', { loggedIn: true });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() =>
      expect(requests.some((r) => r.path === '/api/admin/prices.csv')).toBe(
        true,
      ),
    );
  });
});
