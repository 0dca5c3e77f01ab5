import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerEntry } from '../../../../shared/schemas/balances';
import type uPlot from 'uplot';
import { formatDate } from '../../../lib/format';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeClient } from '../../../testing/test-data';

// uPlot draws on a canvas, which jsdom lacks: a stand-in records what it was asked to draw.
const drawn = vi.hoisted(() => ({
  data: [] as unknown[],
  options: [] as uPlot.Options[],
  destroyed: 0,
}));
vi.mock('uplot', () => {
  class FakePlot {
    static paths = { bars: () => () => null };
    static tzDate = (date: Date) => date;
    constructor(options: uPlot.Options, data: unknown, target: HTMLElement) {
      drawn.data.push(data);
      drawn.options.push(options);
      target.append(document.createElement('canvas'));
    }
    setSize() {}
    destroy() {
      drawn.destroyed += 1;
    }
  }
  return { default: FakePlot };
});

const client = makeClient();
const ledgerPath = `/api/clients/${client.id}/balances/default/ledger`;

function credit(n: number): LedgerEntry {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    kind: 'FREE_CREDIT',
    amount: 10,
    balanceAfter: 10 * n,
    reason: n === 25 ? 'Welcome credit' : null,
    messageId: null,
    recipient: null,
    segments: null,
    pricePerSegment: null,
    pricePrefix: null,
    dateCreated: '2026-11-20T10:00:00.000Z',
  };
}

const credits = Array.from({ length: 25 }, (_, i) => credit(25 - i));
const messageId = '33333333-3333-4333-8333-333333333333';
const debit: LedgerEntry = {
  id: '44444444-4444-4444-8444-444444444444',
  kind: 'SMS',
  amount: -0.1,
  balanceAfter: 249.9,
  reason: null,
  messageId,
  recipient: '31612345678',
  segments: 2,
  pricePerSegment: 0.05,
  pricePrefix: '31',
  dateCreated: '2026-11-21T10:00:00.000Z',
};

const days = [
  { date: '2026-11-20', messages: 0, segments: 0, amount: 0 },
  { date: '2026-11-21', messages: 1, segments: 2, amount: 0.1 },
  { date: '2026-11-22', messages: 3, segments: 3, amount: 0.15 },
];

function routes() {
  return {
    ...shellRoutes({ clients: [client] }),
    [`GET ${ledgerPath}`]: ({ search }: { search: string }) => {
      const query = new URLSearchParams(search);
      const offset = Number(query.get('offset'));
      const count = Number(query.get('count'));
      const rows = query.get('kind') === 'SMS' ? [debit] : credits;
      return {
        body: {
          total: rows.length,
          count,
          offset,
          entries: rows.slice(offset, offset + count),
        },
      };
    },
    [`GET ${ledgerPath}.csv`]: ({ search }: { search: string }) => ({
      body:
        new URLSearchParams(search).get('kind') === 'SMS'
          ? 'date,kind,amount\n2026-11-21,SMS,-0.1\n'
          : 'date,kind,amount,reason\n2026-11-20,FREE_CREDIT,10,Welcome credit\n',
    }),
    [`GET /api/clients/${client.id}/balances/default/usage`]: {
      body: { days },
    },
  };
}

let saved: Blob[] = [];
beforeEach(() => {
  saved = [];
  drawn.data = [];
  drawn.options = [];
  drawn.destroyed = 0;
  // jsdom has no object URLs: keep the Blob the page saves, and stop the link's navigation.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    saved.push(blob);
    return 'blob:test';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
});
afterEach(() => {
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('Top-up History', () => {
  it('lists credits newest first with reason and balance after, 20 a page', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    const table = await screen.findByRole('table', {
      name: 'Top-ups 1 to 20 of 25',
    });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(21);
    expect(rows[0]).toHaveTextContent('DateAmountKindReasonBalance after');
    expect(rows[1]).toHaveTextContent(
      /EUR 10\.00Free creditWelcome creditEUR 250\.00$/,
    );
    expect(rows[2]).toHaveTextContent(/No reasonEUR 240\.00$/);
    const first = requests.find((r) => r.path === ledgerPath);
    expect(new URLSearchParams(first?.search).get('kind')).toBe('FREE_CREDIT');
    expect(first?.headers.get('authorization')).toMatch(/^Basic /);

    const pages = screen.getByRole('navigation', { name: 'Top-up pages' });
    expect(within(pages).getByText('1–20 of 25')).toBeInTheDocument();
    expect(
      within(pages).getByRole('button', { name: 'Previous' }),
    ).toBeDisabled();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    const second = await screen.findByRole('table', {
      name: 'Top-ups 21 to 25 of 25',
    });
    expect(within(second).getAllByRole('row')).toHaveLength(6);
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(requests.at(-1)?.search).toContain('offset=20');
  });

  it('Download CSV fetches the credits CSV with Basic auth and saves it as a file', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Download CSV' }),
    );
    await waitFor(() => expect(saved).toHaveLength(1));
    const csv = requests.find((r) => r.path === `${ledgerPath}.csv`);
    expect(csv?.search).toBe('?kind=FREE_CREDIT');
    expect(csv?.headers.get('authorization')).toMatch(/^Basic /);
    expect(await saved[0]?.text()).toContain('Welcome credit');
    expect(saved[0]?.type).toMatch(/^text\/csv/);
    const link = vi.mocked(HTMLAnchorElement.prototype.click).mock
      .contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('top-up-history.csv');
  });

  it('a failed CSV download says why and saves nothing', async () => {
    mockApi({
      ...routes(),
      [`GET ${ledgerPath}.csv`]: {
        status: 500,
        body: {
          statusCode: 500,
          error: 'Internal Server Error',
          message: 'Something went wrong (request id r-1)',
        },
      },
    });
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Download CSV' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Something went wrong (request id r-1)',
    );
    expect(saved).toEqual([]);
  });
});

describe('Usage History', () => {
  it('lists debits with recipient, segments and the amount spent from the ledger alone, each linking to its message', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Usage History' }));
    const table = await screen.findByRole('table', {
      name: 'Messages paid 1 to 1 of 1',
    });
    const row = within(table).getAllByRole('row')[1];
    if (!row) throw new Error('no debit row');
    const cells = within(row).getAllByRole('cell');
    expect(cells.slice(2).map((cell) => cell.textContent)).toEqual([
      '31612345678',
      '2',
      'EUR 0.05 (prefix 31)',
      'EUR 0.10',
    ]);
    const link = within(row).getByRole('link', {
      name: /^View the message to 31612345678 of /,
    });
    expect(link).toHaveAttribute(
      'href',
      `#/messaging/log?message=${messageId}`,
    );
    // One request for the page of debits, none per row.
    expect(requests.some((r) => r.path.includes('/messages'))).toBe(false);
  });

  it('a debit without its message shows dashes instead of a link', async () => {
    mockApi({
      ...routes(),
      [`GET ${ledgerPath}`]: {
        body: {
          total: 1,
          count: 20,
          offset: 0,
          entries: [
            {
              ...debit,
              messageId: null,
              recipient: null,
              segments: null,
              pricePerSegment: null,
            },
          ],
        },
      },
    });
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Usage History' }));
    const table = await screen.findByRole('table', {
      name: 'Messages paid 1 to 1 of 1',
    });
    const row = within(table).getAllByRole('row')[1];
    if (!row) throw new Error('no debit row');
    expect(
      within(row)
        .getAllByRole('cell')
        .slice(1)
        .map((cell) => cell.textContent),
    ).toEqual(['—', '—', '—', '—', 'EUR 0.10']);
    expect(within(row).queryByRole('link')).toBeNull();
  });

  it('draws messages and amount per day for the last 30 days, with the figures as text', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Usage History' }));

    const usage = await waitFor(() => {
      const found = requests.find((r) => r.path.endsWith('/usage'));
      expect(found).toBeDefined();
      return found;
    });
    const query = new URLSearchParams(usage?.search);
    const since = query.get('since') ?? '';
    const until = query.get('until') ?? '';
    expect(until).toBe(new Date().toISOString().slice(0, 10));
    expect((Date.parse(until) - Date.parse(since)) / 86_400_000).toBe(29);
    expect(screen.getByLabelText('Since')).toHaveValue(since);

    // The chart gets one column per day: UTC midnights, messages, amounts.
    await waitFor(() => expect(drawn.data).toHaveLength(1));
    expect(drawn.data[0]).toEqual([
      [20, 21, 22].map((day) => Date.UTC(2026, 10, day) / 1000),
      [0, 1, 3],
      [0, 0.1, 0.15],
    ]);
    expect(
      screen.getByRole('img', { name: /^Chart of messages and amount/ }),
    ).toBeInTheDocument();

    // The text alternative: a summary and the same figures as a table.
    expect(
      screen.getByText(
        `4 messages, 5 segments, EUR 0.25 from ${formatDate('2026-11-20')} to ${formatDate('2026-11-22')}.`,
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByText('Show the figures per day'));
    const perDay = screen.getByRole('table', { name: 'Usage per day' });
    expect(
      within(perDay)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'DayMessagesSegmentsAmount',
      `${formatDate('2026-11-20')}00EUR 0.00`,
      `${formatDate('2026-11-21')}12EUR 0.10`,
      `${formatDate('2026-11-22')}33EUR 0.15`,
    ]);
  });

  it('draws daily totals as bars, and the legend shows the latest day before any hover', async () => {
    mockApi(routes());
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Usage History' }));
    await waitFor(() => expect(drawn.options).toHaveLength(1));
    const series = drawn.options[0]!.series;
    // Messages and amount both as bars: no line ramping from one day to the next.
    expect(series[1]?.paths).toBeTypeOf('function');
    expect(series[2]?.paths).toBeTypeOf('function');
    const fakePlot = {} as uPlot;
    const legend = series.map((one, index) =>
      typeof one.value === 'function'
        ? one.value(fakePlot, null as unknown as number, index, null)
        : undefined,
    );
    expect(legend).toEqual([formatDate('2026-11-22'), '3', '0.15']);
    const hovered = series[1]?.value;
    expect(
      typeof hovered === 'function' ? hovered(fakePlot, 1, 1, 1) : undefined,
    ).toBe('1');
  });

  it('a chosen period is asked for and redrawn; a reversed one is refused', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Usage History' }));
    await waitFor(() => expect(drawn.data).toHaveLength(1));

    const since = screen.getByLabelText('Since');
    const until = screen.getByLabelText('Until');
    await user.clear(since);
    await user.type(since, '2026-12-01');
    await user.clear(until);
    await user.type(until, '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(
      await screen.findByText('Until must not be before Since'),
    ).toBeInTheDocument();
    expect(until).toHaveAttribute('aria-invalid', 'true');

    await user.clear(since);
    await user.type(since, '2026-10-01');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() =>
      expect(requests.at(-1)?.search).toBe(
        '?since=2026-10-01&until=2026-11-01',
      ),
    );
    await waitFor(() => expect(drawn.data).toHaveLength(2));
    expect(drawn.destroyed).toBe(1);
  });

  it('Download CSV asks for the SMS debits', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp('/billing/balance', { loggedIn: true });
    await user.click(await screen.findByRole('tab', { name: 'Usage History' }));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(requests.find((r) => r.path === `${ledgerPath}.csv`)?.search).toBe(
      '?kind=SMS',
    );
    expect(await saved[0]?.text()).toContain('SMS,-0.1');
  });
});
