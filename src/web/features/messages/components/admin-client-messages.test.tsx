import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  makeMessage,
  makeMessageDetail,
  makeMessages,
  messagePage,
} from '../../../testing/message-data';
import { server } from '../../../testing/msw-server';
import { currentPath, renderApp } from '../../../testing/render-app';
import { makeBalance, makeClient, makeUser } from '../../../testing/test-data';

const client = makeClient({ name: 'Web shop' });
const adminMessages = `/api/admin/clients/${client.id}/messages`;

/** The admin client page's calls; the messages through the admin variant only. */
function serveAdminPage(list: (url: URL) => unknown) {
  const seen: URL[] = [];
  server.use(
    http.get('/api/users/me', () =>
      HttpResponse.json(makeUser({ roles: ['ROLE_CLIENT_ADMIN'] })),
    ),
    http.get(`/api/admin/clients/${client.id}`, () =>
      HttpResponse.json(client),
    ),
    http.get(`/api/admin/clients/${client.id}/balances/default`, () =>
      HttpResponse.json(makeBalance({ id: client.id })),
    ),
    http.get('/api/admin/routes/split', () =>
      HttpResponse.json({ routes: [], total: 0, count: 300, offset: 0 }),
    ),
    http.get(`/api/admin/clients/${client.id}/numbers`, () =>
      HttpResponse.json({ numbers: [] }),
    ),
    http.get(`/api/admin/clients/${client.id}/conversations`, () =>
      HttpResponse.json({ total: 0, count: 30, offset: 0, conversations: [] }),
    ),
    http.get(adminMessages, ({ request }) => {
      const url = new URL(request.url);
      seen.push(url);
      return HttpResponse.json(list(url) as object);
    }),
  );
  return seen;
}

describe('Admin client page: messages', { timeout: 15_000 }, () => {
  it("lists the client's messages compactly and opens one with its attempts, through the admin calls", async () => {
    serveAdminPage(() =>
      messagePage([
        makeMessage({
          state: 'FAILED',
          deliveryMethod: 'WORLD_SPECIAL',
          simulated: false,
        }),
      ]),
    );
    const detail = makeMessageDetail({
      state: 'FAILED',
      deliveryMethod: 'WORLD_SPECIAL',
      simulated: false,
      attempts: [
        {
          method: 'WORLD_SPECIAL',
          state: 'REJECTED',
          providerMessageId: null,
          error: '400 from the gateway',
          errorCode: 'rejected',
          providerErrorCode: null,
          dateCreated: '2026-03-04T10:20:31.000Z',
        },
      ],
    });
    server.use(
      http.get(`${adminMessages}/${detail.id}`, () =>
        HttpResponse.json(detail),
      ),
    );
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    const section = await screen.findByRole('region', { name: 'Messages' });
    const table = await within(section).findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Recipient', 'State', 'Price', 'Method']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((td) => td.textContent)
        .slice(1),
    ).toEqual(['447700900123', 'Failed', 'EUR 0.05', 'WORLD_SPECIAL']);

    await user.click(
      within(table).getByRole('button', { name: '447700900123' }),
    );
    const panel = await screen.findByRole('dialog', {
      name: 'Message to 447700900123',
    });
    const attempts = within(
      await within(panel).findByRole('region', { name: 'Attempts' }),
    ).getAllByRole('listitem');
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toHaveTextContent('WORLD_SPECIAL');
    expect(attempts[0]).toHaveTextContent('Rejected');
    expect(attempts[0]).toHaveTextContent('Error400 from the gateway');
  });

  it('pages with the offset in the URL, and says when the client has sent nothing', async () => {
    const seen = serveAdminPage((url) => {
      const offset = Number(url.searchParams.get('offset'));
      return messagePage(makeMessages(offset === 0 ? 30 : 2, offset), {
        total: 32,
        offset,
      });
    });
    const { user, unmount } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    const pager = await screen.findByRole('navigation', {
      name: 'Message pages',
    });
    expect(pager).toHaveTextContent('1–30 of 32');
    await user.click(within(pager).getByRole('link', { name: 'Next' }));
    await waitFor(() => expect(pager).toHaveTextContent('31–32 of 32'));
    expect(currentPath()).toBe(`/admin/clients/${client.id}?offset=30`);
    expect(seen.at(-1)?.searchParams.get('offset')).toBe('30');
    unmount();

    server.use(
      http.get(adminMessages, () => HttpResponse.json(messagePage([]))),
    );
    renderApp(`/admin/clients/${client.id}`, { loggedIn: true });
    expect(
      await screen.findByText('This client has sent no messages.'),
    ).toBeInTheDocument();
  });
});
