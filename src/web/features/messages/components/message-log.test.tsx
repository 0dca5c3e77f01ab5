import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  makeMessage,
  makeMessageDetail,
  makeMessages,
  messagePage,
} from '../../../testing/message-data';
import { server } from '../../../testing/msw-server';
import { shellHandlers } from '../../../testing/msw-shell';
import { currentPath, renderApp } from '../../../testing/render-app';
import { makeClient } from '../../../testing/test-data';

const client = makeClient();
const listPath = `/api/clients/${client.id}/messages`;

interface Seen {
  url: URL;
  headers: Headers;
}

/** Answers the shell and the message list with `answer`, recording each list request. */
function serveLog(
  answer: (url: URL, call: number) => unknown = () => messagePage([]),
) {
  const seen: Seen[] = [];
  server.use(
    ...shellHandlers(),
    http.get(listPath, ({ request }) => {
      const url = new URL(request.url);
      seen.push({ url, headers: request.headers });
      return HttpResponse.json(answer(url, seen.length) as object);
    }),
  );
  return seen;
}

/** The badges of the table's State column, top to bottom. */
function listedStates(): string[] {
  return rowTexts()
    .slice(1)
    .map((row) => row[3] ?? '');
}

function rowTexts(): string[][] {
  const table = screen.getByRole('table');
  return within(table)
    .getAllByRole('row')
    .map((row) =>
      [
        ...within(row).queryAllByRole('columnheader'),
        ...within(row).queryAllByRole('cell'),
      ].map((cell) => cell.textContent ?? ''),
    );
}

describe('Message Log', { timeout: 15_000 }, () => {
  it('tabs lead from Send SMS to the Message Log and mark the current screen', async () => {
    serveLog();
    const { user } = renderApp('/messaging', { loggedIn: true });
    // The first screen of the file loads the shell's and both screens' code: slow when busy.
    const tabs = await screen.findByRole(
      'navigation',
      { name: 'Messaging' },
      { timeout: 10_000 },
    );
    expect(currentPath()).toBe('/messaging/sms');
    expect(
      within(tabs).getByRole('link', { name: 'Send SMS' }),
    ).toHaveAttribute('aria-current', 'page');
    await user.click(within(tabs).getByRole('link', { name: 'Message Log' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Message Log' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/messaging/log');
    expect(
      within(tabs).getByRole('link', { name: 'Message Log' }),
    ).toHaveAttribute('aria-current', 'page');
    expect(
      within(tabs).getByRole('link', { name: 'Send SMS' }),
    ).not.toHaveAttribute('aria-current');
  });

  it('lists the messages: date, recipient, sender, state, segments, price, method and Simulated', async () => {
    const seen = serveLog(() =>
      messagePage([
        makeMessage(),
        makeMessage({
          id: '33333333-3333-4333-8333-000000000002',
          recipient: '15550100',
          state: 'REJECTED',
          segments: 3,
          price: 0.15,
          deliveryMethod: 'VONAGE_SMS',
          simulated: false,
        }),
        makeMessage({
          id: '33333333-3333-4333-8333-000000000003',
          recipient: '15550101',
          state: 'ACCEPTED',
          deliveryMethod: null,
          simulated: false,
        }),
      ]),
    );
    renderApp('/messaging/log', { loggedIn: true });
    await screen.findByRole('table');
    const [header, ...rows] = rowTexts();
    expect(header).toEqual([
      'Date',
      'Recipient',
      'Sender',
      'State',
      'Segments',
      'Price',
      'Method',
    ]);
    expect(rows.map((row) => row.slice(1))).toEqual([
      [
        '447700900123',
        'Skyline',
        'Delivered',
        '1',
        'EUR 0.05',
        'MELROSE_SMPPSimulated',
      ],
      ['15550100', 'Skyline', 'Rejected', '3', 'EUR 0.15', 'VONAGE_SMS'],
      ['15550101', 'Skyline', 'Accepted', '1', 'EUR 0.05', 'Not routed yet'],
    ]);
    expect(rows[0]?.[0]).toMatch(/Mar 4, 2026/);
    expect(seen[0]?.url.searchParams.get('count')).toBe('30');
    expect(seen[0]?.url.searchParams.get('offset')).toBe('0');
    expect(seen[0]?.headers.get('authorization')).toMatch(/^Basic /);
  });

  it('keeps the filters in the URL and sends them to the API; Clear filters drops them', async () => {
    const seen = serveLog((url) =>
      url.searchParams.has('state')
        ? messagePage([makeMessage({ state: 'UNDELIVERED' })])
        : messagePage(makeMessages(2)),
    );
    const { user } = renderApp('/messaging/log', { loggedIn: true });
    await screen.findByRole('table');
    const form = screen.getByRole('form', { name: 'Message filters' });
    await user.selectOptions(
      within(form).getByLabelText('State'),
      'Undelivered',
    );
    await user.type(within(form).getByLabelText('Recipient'), '+44 7700-900');
    await user.type(within(form).getByLabelText('Since'), '2026-03-01');
    await user.type(within(form).getByLabelText('Until'), '2026-03-04');
    await user.click(
      within(form).getByRole('button', { name: 'Apply filters' }),
    );

    await waitFor(() => expect(listedStates()).toEqual(['Undelivered']));
    expect(currentPath()).toBe(
      '/messaging/log?state=UNDELIVERED&recipient=447700900&since=2026-03-01&until=2026-03-04',
    );
    const query = seen.at(-1)?.url.searchParams;
    expect(query?.get('state')).toBe('UNDELIVERED');
    expect(query?.get('recipient')).toBe('447700900');
    expect(query?.get('offset')).toBe('0');
    // Calendar days of the browser's zone: from the first day's midnight to the last day's end.
    const since = new Date(query?.get('since') ?? '');
    const until = new Date(query?.get('until') ?? '');
    expect([since.getFullYear(), since.getMonth(), since.getDate()]).toEqual([
      2026, 2, 1,
    ]);
    expect([since.getHours(), since.getMinutes()]).toEqual([0, 0]);
    expect([until.getMonth(), until.getDate(), until.getHours()]).toEqual([
      2, 4, 23,
    ]);
    expect(new Date(until.getTime() + 1).getDate()).toBe(5);

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(currentPath()).toBe('/messaging/log'));
    await waitFor(() =>
      expect(listedStates()).toEqual(['Delivered', 'Delivered']),
    );
    expect(screen.getByLabelText('State')).toHaveValue('');
    expect(screen.getByLabelText('Recipient')).toHaveValue('');
    // Shown from the cache at once, and asked again without filters.
    await waitFor(() =>
      expect(seen.at(-1)?.url.searchParams.has('state')).toBe(false),
    );
  });

  it('reads the filters from the URL it is opened at, and refuses a range that runs backwards', async () => {
    const seen = serveLog(() => messagePage([makeMessage()]));
    const { user } = renderApp(
      '/messaging/log?state=DELIVERED&recipient=447700900123&since=2026-03-02',
      { loggedIn: true },
    );
    await screen.findByRole('table');
    const form = screen.getByRole('form', { name: 'Message filters' });
    expect(within(form).getByLabelText('State')).toHaveValue('DELIVERED');
    expect(within(form).getByLabelText('Recipient')).toHaveValue(
      '447700900123',
    );
    expect(within(form).getByLabelText('Since')).toHaveValue('2026-03-02');
    expect(seen[0]?.url.searchParams.get('state')).toBe('DELIVERED');
    expect(seen[0]?.url.searchParams.get('recipient')).toBe('447700900123');

    await user.type(within(form).getByLabelText('Until'), '2026-03-01');
    await user.click(
      within(form).getByRole('button', { name: 'Apply filters' }),
    );
    expect(
      await within(form).findByText('Until must not be before Since'),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText('Until')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(currentPath()).not.toContain('until=');
  });

  it('pages 30 at a time with the filters kept, Previous and Next', async () => {
    const seen = serveLog((url) => {
      const offset = Number(url.searchParams.get('offset'));
      return messagePage(makeMessages(offset === 0 ? 30 : 15, offset), {
        total: 45,
        offset,
      });
    });
    const { user } = renderApp('/messaging/log?state=DELIVERED', {
      loggedIn: true,
    });
    const pager = await screen.findByRole('navigation', {
      name: 'Message pages',
    });
    expect(pager).toHaveTextContent('1–30 of 45');
    expect(within(pager).queryByRole('link', { name: 'Previous' })).toBeNull();
    await user.click(within(pager).getByRole('link', { name: 'Next' }));
    await waitFor(() => expect(pager).toHaveTextContent('31–45 of 45'));
    expect(currentPath()).toBe('/messaging/log?state=DELIVERED&offset=30');
    expect(seen.at(-1)?.url.searchParams.get('offset')).toBe('30');
    expect(seen.at(-1)?.url.searchParams.get('state')).toBe('DELIVERED');
    expect(rowTexts()).toHaveLength(16);
    expect(within(pager).queryByRole('link', { name: 'Next' })).toBeNull();
    await user.click(within(pager).getByRole('link', { name: 'Previous' }));
    await waitFor(() => expect(pager).toHaveTextContent('1–30 of 45'));
    expect(currentPath()).toBe('/messaging/log?state=DELIVERED');
  });

  it('opens a message in the side panel with its fields and every attempt', async () => {
    serveLog(() => messagePage([makeMessage({ state: 'DELIVERED' })]));
    const message = makeMessageDetail({
      deliveryMethod: 'MELROSE_SMPP',
      simulated: false,
      attempts: [
        {
          method: 'VONAGE_SMS',
          state: 'FAILED',
          providerMessageId: null,
          error: 'HTTP 503 from the provider',
          errorCode: 'provider_unavailable',
          providerErrorCode: 'HTTP 503',
          dateCreated: '2026-03-04T10:20:30.500Z',
        },
        {
          method: 'MELROSE_SMPP',
          state: 'DELIVERED',
          providerMessageId: 'smsc-0042',
          error: null,
          errorCode: null,
          providerErrorCode: null,
          dateCreated: '2026-03-04T10:20:31.000Z',
        },
      ],
      callbacks: [
        {
          state: 'DELIVERED',
          attempt: 1,
          status: 500,
          error: 'Non-2xx answer',
          dateCreated: '2026-03-04T10:20:32.000Z',
        },
        {
          state: 'DELIVERED',
          attempt: 2,
          status: 200,
          error: null,
          dateCreated: '2026-03-04T10:20:50.000Z',
        },
      ],
    });
    server.use(
      http.get(`${listPath}/:messageId`, ({ params }) =>
        params.messageId === message.id
          ? HttpResponse.json(message)
          : HttpResponse.json({ message: 'Not found' }, { status: 404 }),
      ),
    );
    const { user } = renderApp('/messaging/log', { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: '447700900123' }),
    );
    const panel = await screen.findByRole('dialog', {
      name: 'Message to 447700900123',
    });
    const fields = await within(panel).findByRole('region', {
      name: 'Message',
    });
    const pairs = within(fields)
      .getAllByRole('term')
      .map((term) => [term.textContent, term.nextElementSibling?.textContent]);
    expect(pairs).toEqual(
      expect.arrayContaining([
        ['State', 'Delivered'],
        ['Recipient', '447700900123'],
        ['Sender', 'Skyline'],
        ['Body', 'Your code is 1234'],
        ['Reference', 'login-code'],
        ['Delivery method', 'MELROSE_SMPP'],
        ['Encoding', 'GSM-7'],
        ['Segments', '1'],
        ['Price per segment', 'EUR 0.05 (default price)'],
        ['Price', 'EUR 0.05'],
        ['Message ID', message.id],
      ]),
    );
    const attempts = within(
      within(panel).getByRole('region', { name: 'Attempts' }),
    ).getAllByRole('listitem');
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toHaveTextContent('Attempt 1: VONAGE_SMS');
    expect(attempts[0]).toHaveTextContent('Failed');
    expect(attempts[0]).toHaveTextContent('Provider ID—');
    expect(attempts[0]).toHaveTextContent('ErrorHTTP 503 from the provider');
    expect(attempts[0]).toHaveTextContent(/TimeMar 4, 2026/);
    expect(attempts[1]).toHaveTextContent('Attempt 2: MELROSE_SMPP');
    expect(attempts[1]).toHaveTextContent('Delivered');
    expect(attempts[1]).toHaveTextContent('Provider IDsmsc-0042');
    // One entry per event: its last answer as a sentence, every try folded below it.
    const delivered = within(
      within(panel).getByRole('region', { name: 'Status callbacks' }),
    ).getByRole('listitem', { name: 'DELIVERED event' });
    expect(delivered).toHaveTextContent('Received');
    expect(delivered).toHaveTextContent(
      'Last answerYour endpoint answered 200.',
    );
    expect(within(delivered).getByText('2 tries')).toBeInTheDocument();

    await user.click(
      within(panel).getByRole('button', { name: 'Close Panel' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('refreshes while a message is in flight and stops once every message is final', async () => {
    // A fake clock that also runs on its own: the refreshes come by themselves, and the quiet
    // after the last one is skipped over instead of waited for.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const inFlight = makeMessage({ state: 'SUBMITTED' });
    const seen = serveLog((_, call) =>
      messagePage([call < 3 ? inFlight : { ...inFlight, state: 'DELIVERED' }]),
    );
    renderApp('/messaging/log', { loggedIn: true });
    await screen.findByRole('table');
    expect(listedStates()).toEqual(['Submitted']);
    expect(
      screen.getByText(
        'Updating every 2 seconds while messages are on their way.',
      ),
    ).toBeInTheDocument();
    // Two refreshes, 2 s apart on the clock: the second finds the message delivered.
    await vi.advanceTimersByTimeAsync(2000);
    await waitFor(() => expect(seen).toHaveLength(2));
    await vi.advanceTimersByTimeAsync(2000);
    await waitFor(() => expect(listedStates()).toEqual(['Delivered']));
    expect(seen).toHaveLength(3);
    expect(
      screen.queryByText(
        'Updating every 2 seconds while messages are on their way.',
      ),
    ).toBeNull();
    // Two more intervals: no further request once everything listed is final.
    await vi.advanceTimersByTimeAsync(4200);
    expect(seen).toHaveLength(3);
  }, 20_000);

  it('a link with ?message= opens that message, and leaves the URL without it', async () => {
    serveLog(() => messagePage([makeMessage()]));
    const message = makeMessageDetail({ body: 'Linked after a send' });
    server.use(
      http.get(`${listPath}/${message.id}`, () => HttpResponse.json(message)),
    );
    renderApp(`/messaging/log?state=DELIVERED&message=${message.id}`, {
      loggedIn: true,
    });
    const panel = await screen.findByRole('dialog', { name: 'Message' });
    expect(
      await within(panel).findByText('Linked after a send'),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/messaging/log?state=DELIVERED');
    expect(screen.getByLabelText('State')).toHaveValue('DELIVERED');
  });

  it('the side panel refreshes a message in flight until it is final', async () => {
    let detailCalls = 0;
    // The list follows the message, so its own refresh stops with it.
    serveLog(() =>
      messagePage([
        makeMessage({ state: detailCalls < 2 ? 'SUBMITTED' : 'DELIVERED' }),
      ]),
    );
    const submitted = makeMessageDetail({
      state: 'SUBMITTED',
      attempts: [
        {
          method: 'MELROSE_SMPP',
          state: 'SUBMITTED',
          providerMessageId: 'smsc-7',
          error: null,
          errorCode: null,
          providerErrorCode: null,
          dateCreated: '2026-03-04T10:20:31.000Z',
        },
      ],
    });
    server.use(
      http.get(`${listPath}/:messageId`, () => {
        detailCalls += 1;
        return HttpResponse.json(
          detailCalls === 1
            ? submitted
            : {
                ...submitted,
                state: 'DELIVERED',
                attempts: [{ ...submitted.attempts[0], state: 'DELIVERED' }],
              },
        );
      }),
    );
    const { user } = renderApp('/messaging/log', { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: '447700900123' }),
    );
    const panel = await screen.findByRole('dialog');
    const attempts = await within(panel).findByRole('region', {
      name: 'Attempts',
    });
    expect(attempts).toHaveTextContent('Submitted');
    await waitFor(() => expect(attempts).toHaveTextContent('Delivered'), {
      timeout: 6000,
    });
    expect(detailCalls).toBe(2);
  }, 15_000);

  describe('Download CSV', () => {
    afterEach(() => {
      delete (URL as { createObjectURL?: unknown }).createObjectURL;
      delete (URL as { revokeObjectURL?: unknown }).revokeObjectURL;
    });

    it('fetches messages.csv with the filters of the URL and saves it as messages.csv', async () => {
      serveLog(() => messagePage([makeMessage()]));
      const csv =
        'id,dateCreated,recipient,state\n33333333-3333-4333-8333-333333333333,2026-03-04T10:20:30.000Z,447700900123,DELIVERED\n';
      const csvRequests: Seen[] = [];
      server.use(
        http.get(`${listPath}.csv`, ({ request }) => {
          csvRequests.push({
            url: new URL(request.url),
            headers: request.headers,
          });
          return new HttpResponse(csv, {
            headers: { 'Content-Type': 'text/csv' },
          });
        }),
      );
      const saved: Blob[] = [];
      URL.createObjectURL = vi.fn((blob: Blob) => {
        saved.push(blob);
        return 'blob:messages';
      });
      URL.revokeObjectURL = vi.fn();
      const clicks: { href: string; download: string }[] = [];
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(
        function (this: HTMLAnchorElement) {
          clicks.push({ href: this.href, download: this.download });
        },
      );

      const { user } = renderApp(
        '/messaging/log?state=DELIVERED&recipient=447700900123',
        {
          loggedIn: true,
        },
      );
      await screen.findByRole('table');
      await user.click(screen.getByRole('button', { name: 'Download CSV' }));

      await waitFor(() => expect(clicks).toHaveLength(1));
      expect(clicks[0]).toEqual({
        href: 'blob:messages',
        download: 'messages.csv',
      });
      expect(csvRequests).toHaveLength(1);
      expect(csvRequests[0]?.url.searchParams.get('state')).toBe('DELIVERED');
      expect(csvRequests[0]?.url.searchParams.get('recipient')).toBe(
        '447700900123',
      );
      expect(csvRequests[0]?.headers.get('authorization')).toMatch(/^Basic /);
      expect(csvRequests[0]?.url.search).not.toMatch(/password|ada/i);
      expect(saved).toHaveLength(1);
      expect(await saved[0]?.text()).toBe(csv);
      await waitFor(() =>
        expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:messages'),
      );
    });

    it('says so when the CSV cannot be had, and saves nothing', async () => {
      serveLog(() => messagePage([makeMessage()]));
      server.use(
        http.get(`${listPath}.csv`, () =>
          HttpResponse.json(
            {
              statusCode: 400,
              error: 'Bad Request',
              message: 'since must be a date',
            },
            { status: 400 },
          ),
        ),
      );
      URL.createObjectURL = vi.fn(() => 'blob:nothing');
      URL.revokeObjectURL = vi.fn();
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { user } = renderApp('/messaging/log', { loggedIn: true });
      await screen.findByRole('table');
      await user.click(screen.getByRole('button', { name: 'Download CSV' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'The CSV could not be downloaded. since must be a date',
      );
      expect(URL.createObjectURL).not.toHaveBeenCalled();
    });
  });

  it('shows an error with Try again when the list cannot be loaded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    let fail = true;
    server.use(
      ...shellHandlers(),
      http.get(listPath, () =>
        fail
          ? HttpResponse.json(
              {
                statusCode: 500,
                error: 'Internal Server Error',
                message: 'Internal Server Error (request abc)',
              },
              { status: 500 },
            )
          : HttpResponse.json(messagePage([makeMessage()])),
      ),
    );
    const { user } = renderApp('/messaging/log', { loggedIn: true });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The messages could not be loaded. Internal Server Error (request abc)',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when there are no messages yet, and when none match the filters', async () => {
    serveLog(() => messagePage([]));
    const { user, unmount } = renderApp('/messaging/log', { loggedIn: true });
    expect(
      await screen.findByText(
        'No messages yet. Messages you send appear here with their delivery state.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Send an SMS' }));
    await waitFor(() => expect(currentPath()).toBe('/messaging/sms'));
    unmount();

    renderApp('/messaging/log?state=EXPIRED', { loggedIn: true });
    expect(
      await screen.findByText('No messages match these filters.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('link', { name: 'Clear filters' })).toHaveAttribute(
      'href',
      '#/messaging/log',
    );
  });
});
