import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { heldRoute, mockApi, type Route } from '../../../testing/mock-api';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeBalance, makeClient, makeUser } from '../../../testing/test-data';
import type {
  Conversation,
  ConversationItem,
  ConversationThread,
} from '../../../../shared/schemas/inbound';

const client = makeClient();
const base = `/api/clients/${client.id}`;
const remote = '447700900123';

const conversation = (overrides: Partial<Conversation> = {}): Conversation => ({
  number: remote,
  lastMessageAt: '2026-11-28T09:00:00.000Z',
  lastBody: 'Is my order on its way?',
  lastDirection: 'inbound',
  inboundCount: 2,
  outboundCount: 1,
  optedOut: false,
  ...overrides,
});

const items: ConversationItem[] = [
  {
    direction: 'outbound',
    id: 'm1',
    body: 'Your order has shipped',
    state: 'DELIVERED',
    date: '2026-11-28T08:00:00.000Z',
  },
  {
    direction: 'inbound',
    id: 'i1',
    body: 'Is my order on its way?',
    state: 'RECEIVED',
    date: '2026-11-28T09:00:00.000Z',
  },
];

const thread = (
  overrides: Partial<ConversationThread> = {},
): ConversationThread => ({
  number: remote,
  optedOut: false,
  total: items.length,
  count: 50,
  offset: 0,
  items,
  ...overrides,
});

const conversationsRoute = (
  conversations: Conversation[],
  total = conversations.length,
): Route => ({
  body: { total, count: 30, offset: 0, conversations },
});

const numbersRoute = (numbers: string[]): Route => ({
  body: {
    numbers: numbers.map((number) => ({
      number,
      clientId: client.id,
      helpText: null,
      dateCreated: '2026-11-01T00:00:00.000Z',
    })),
  },
});

describe('Inbox', () => {
  it('is a Messaging tab listing conversations: the number opens the thread, the last message says who wrote it, opted-out numbers say so', async () => {
    mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations`]: conversationsRoute([
        conversation(),
        conversation({
          number: '33612345678',
          lastBody: 'Thanks, see you then',
          lastDirection: 'outbound',
          inboundCount: 0,
          outboundCount: 3,
          optedOut: true,
        }),
      ]),
      [`GET ${base}/conversations/${remote}`]: { body: thread() },
      [`GET ${base}/numbers`]: numbersRoute([]),
    });
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    await user.click(await screen.findByRole('link', { name: 'Inbox' }));
    const table = await screen.findByRole('table', {
      name: 'Conversations 1 to 2 of 2',
    });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(
      '+447700900123Received: Is my order on its way?',
    );
    expect(rows[1]).toHaveTextContent('2 received · 1 sent');
    expect(rows[1]).not.toHaveTextContent('Opted out');
    expect(rows[2]).toHaveTextContent(
      '+33612345678Opted outYou: Thanks, see you then',
    );
    await user.click(
      within(table).getByRole('link', { name: '+447700900123' }),
    );
    await waitFor(() =>
      expect(currentPath()).toBe(`/messaging/inbox/${remote}`),
    );
    expect(
      await screen.findByRole('heading', { name: '+447700900123', level: 1 }),
    ).toBeVisible();
  });

  it('shows grey rows while loading, then says when no number has written yet', async () => {
    const held = heldRoute(conversationsRoute([]) as { body: unknown });
    mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations`]: held.route,
    });
    renderApp('/messaging/inbox', { loggedIn: true });
    expect(
      await screen.findByText('Loading conversations'),
    ).toBeInTheDocument();
    held.release();
    expect(
      await screen.findByText(
        'No replies yet. Messages sent to your numbers appear here, with your answers.',
      ),
    ).toBeVisible();
  });

  it('lists the numbers that wrote (inbound=true) unless asked for the numbers only sent to as well, in the URL', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations`]: conversationsRoute([conversation()], 45),
    });
    const { user } = renderApp('/messaging/inbox?offset=30', {
      loggedIn: true,
    });
    await screen.findByRole('table', { name: /^Conversations 31 to/ });
    const asked = () =>
      new URLSearchParams(
        requests.filter((r) => r.path.endsWith('/conversations')).at(-1)
          ?.search,
      );
    expect(asked().get('inbound')).toBe('true');
    const toggle = screen.getByRole('checkbox', {
      name: 'Also show numbers you only sent to',
    });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    // A new choice starts again at the first page.
    await waitFor(() =>
      expect(currentPath()).toBe('/messaging/inbox?all=true'),
    );
    await waitFor(() => expect(asked().get('inbound')).toBeNull());
    expect(asked().get('offset')).toBe('0');
    expect(toggle).toBeChecked();
    await user.click(screen.getByRole('link', { name: 'Next' }));
    await waitFor(() =>
      expect(currentPath()).toBe('/messaging/inbox?all=true&offset=30'),
    );
  });

  it('pages through conversations with the URL', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations`]: conversationsRoute([conversation()], 45),
    });
    const { user } = renderApp('/messaging/inbox', { loggedIn: true });
    await screen.findByRole('table', { name: /Conversations 1 to 1 of 45/ });
    await user.click(screen.getByRole('link', { name: 'Next' }));
    await waitFor(() =>
      expect(currentPath()).toBe('/messaging/inbox?offset=30'),
    );
    await waitFor(() =>
      expect(
        new URLSearchParams(
          requests.filter((r) => r.path.endsWith('/conversations')).at(-1)
            ?.search,
        ).get('offset'),
      ).toBe('30'),
    );
  });
});

describe('A conversation', () => {
  it('lists both directions oldest first, each labelled, and replies from the number the client holds', async () => {
    let sent = false;
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations/${remote}`]: () => ({
        body: sent
          ? thread({
              total: 3,
              items: [
                ...items,
                {
                  direction: 'outbound',
                  id: 'm2',
                  body: 'Yes, tomorrow',
                  state: 'ACCEPTED',
                  date: '2026-11-28T09:05:00.000Z',
                },
              ],
            })
          : thread(),
      }),
      [`GET ${base}/numbers`]: numbersRoute(['447400123456']),
      [`POST ${base}/messages/sms`]: ({ body }) => {
        sent = true;
        return { body: { id: 'm2', ...(body as object) } };
      },
    });
    const { user } = renderApp(`/messaging/inbox/${remote}`, {
      loggedIn: true,
    });
    const log = await screen.findByRole('log', {
      name: 'Messages with +447700900123',
    });
    const bubbles = within(log).getAllByRole('listitem');
    expect(bubbles[0]).toHaveTextContent(/^Sent · .+ · Delivered/);
    expect(bubbles[0]).toHaveTextContent('Your order has shipped');
    expect(bubbles[1]).toHaveTextContent(/^Received · /);
    expect(bubbles[1]).toHaveTextContent('Is my order on its way?');

    const form = await screen.findByRole('form', {
      name: 'Reply to +447700900123',
    });
    expect(within(form).getByText('+447400123456')).toBeVisible();
    const reply = within(form).getByLabelText('Reply');
    await user.click(within(form).getByRole('button', { name: 'Send Reply' }));
    expect(reply).toHaveAccessibleDescription('Write a reply first');
    await user.type(reply, 'Yes, tomorrow');
    // The keyboard's way to send from the box: Ctrl+Enter.
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('SMS Sent')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      sender: '447400123456',
      recipient: remote,
      body: 'Yes, tomorrow',
      reference: '',
    });
    expect(reply).toHaveValue('');
    expect(await within(log).findByText('Yes, tomorrow')).toBeInTheDocument();
  });

  it("offers a choice of the client's numbers, and the provider's name when it holds none", async () => {
    mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations/${remote}`]: { body: thread() },
      [`GET ${base}/numbers`]: numbersRoute(['447400123456', '60123']),
    });
    renderApp(`/messaging/inbox/${remote}`, { loggedIn: true });
    const from = await screen.findByRole('combobox', { name: 'From' });
    expect(
      within(from)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['+447400123456', '60123']);
  });

  it("sends under the provider's name when the client holds no number", async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations/${remote}`]: { body: thread() },
      [`GET ${base}/numbers`]: numbersRoute([]),
      [`POST ${base}/messages/sms`]: ({ body }) => ({
        body: { id: 'm2', ...(body as object) },
      }),
    });
    const { user } = renderApp(`/messaging/inbox/${remote}`, {
      loggedIn: true,
    });
    const form = await screen.findByRole('form', {
      name: 'Reply to +447700900123',
    });
    expect(within(form).getByText('Skyline')).toBeVisible();
    await user.type(within(form).getByLabelText('Reply'), 'Hello');
    await user.click(within(form).getByRole('button', { name: 'Send Reply' }));
    await screen.findByText('SMS Sent');
    expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      sender: 'Skyline',
    });
  });

  it('turns the reply box off for a number that opted out, saying why', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations/${remote}`]: {
        body: thread({ optedOut: true }),
      },
      [`GET ${base}/numbers`]: numbersRoute(['447400123456']),
    });
    renderApp(`/messaging/inbox/${remote}`, { loggedIn: true });
    const form = await screen.findByRole('form', {
      name: 'Reply to +447700900123',
    });
    const reason = within(form).getByRole('status');
    expect(reason).toHaveTextContent(
      '+447700900123 has opted out of your messages: replies are refused until it sends START',
    );
    expect(within(form).getByLabelText('Reply')).toBeDisabled();
    const send = within(form).getByRole('button', { name: 'Send Reply' });
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription(/has opted out/);
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it("shows the server's refusal (403, opted out meanwhile) without signing out, then the box turns off", async () => {
    let optedOut = false;
    mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations/${remote}`]: () => ({
        body: thread({ optedOut }),
      }),
      [`GET ${base}/numbers`]: numbersRoute(['447400123456']),
      [`POST ${base}/messages/sms`]: () => {
        optedOut = true;
        return {
          status: 403,
          body: {
            statusCode: 403,
            error: 'Forbidden',
            code: 'recipient_opted_out',
            message: 'Sending to +447700900123 is not allowed: it opted out',
          },
        };
      },
    });
    const { user } = renderApp(`/messaging/inbox/${remote}`, {
      loggedIn: true,
    });
    const form = await screen.findByRole('form', {
      name: 'Reply to +447700900123',
    });
    await user.type(within(form).getByLabelText('Reply'), 'Still there?');
    await user.click(within(form).getByRole('button', { name: 'Send Reply' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Sending to +447700900123 is not allowed: it opted out',
    );
    expect(currentPath()).toBe(`/messaging/inbox/${remote}`);
    await waitFor(() =>
      expect(within(form).getByLabelText('Reply')).toBeDisabled(),
    );
    expect(within(form).getByRole('status')).toHaveTextContent(/has opted out/);
  });

  it('says when the balance cannot pay for the reply (402)', async () => {
    mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations/${remote}`]: { body: thread() },
      [`GET ${base}/numbers`]: numbersRoute([]),
      [`POST ${base}/messages/sms`]: {
        status: 402,
        body: { statusCode: 402, message: 'Insufficient balance' },
      },
    });
    const { user } = renderApp(`/messaging/inbox/${remote}`, {
      loggedIn: true,
    });
    const form = await screen.findByRole('form', {
      name: 'Reply to +447700900123',
    });
    await user.type(within(form).getByLabelText('Reply'), 'Hello');
    await user.click(within(form).getByRole('button', { name: 'Send Reply' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Failed to send. Not enough Balance.',
    );
  });

  it('shows the latest messages of a long thread first, and earlier ones on request', async () => {
    const many = (from: number, to: number): ConversationItem[] =>
      Array.from({ length: to - from }, (_, i) => ({
        direction: 'inbound',
        id: `i${from + i}`,
        body: `Message ${from + i}`,
        state: 'RECEIVED',
        date: '2026-11-28T09:00:00.000Z',
      }));
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations/${remote}`]: ({ search }) => {
        const params = new URLSearchParams(search);
        const offset = Number(params.get('offset'));
        const count = Number(params.get('count'));
        const end = Math.min(120, offset + count);
        return {
          body: thread({
            total: 120,
            offset,
            count,
            items: many(offset, end),
          }),
        };
      },
      [`GET ${base}/numbers`]: numbersRoute([]),
    });
    const { user } = renderApp(`/messaging/inbox/${remote}`, {
      loggedIn: true,
    });
    const log = await screen.findByRole('log');
    await waitFor(() =>
      expect(within(log).getAllByRole('listitem')).toHaveLength(50),
    );
    expect(within(log).getAllByRole('listitem')[0]).toHaveTextContent(
      'Message 70',
    );
    expect(within(log).getAllByRole('listitem').at(-1)).toHaveTextContent(
      'Message 119',
    );
    expect(screen.getByText('70 earlier messages')).toBeVisible();
    await user.click(
      screen.getByRole('button', { name: 'Show earlier messages' }),
    );
    await waitFor(() =>
      expect(within(log).getAllByRole('listitem')).toHaveLength(100),
    );
    expect(within(log).getAllByRole('listitem')[0]).toHaveTextContent(
      'Message 20',
    );
    const asked = requests
      .filter((r) => r.path.endsWith(`/conversations/${remote}`))
      .map((r) => new URLSearchParams(r.search).get('offset'));
    expect(asked.slice(0, 4)).toEqual(['0', '70', '0', '20']);
  });

  it('says when the thread does not exist', async () => {
    mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations/999999999`]: {
        status: 404,
        body: { statusCode: 404, message: 'Not found' },
      },
      [`GET ${base}/numbers`]: numbersRoute([]),
    });
    renderApp('/messaging/inbox/999999999', { loggedIn: true });
    expect(
      await screen.findByText('There is no conversation with +999999999.'),
    ).toBeVisible();
  });

  it('shows a conversation with a sender that wrote under a name, and says a reply cannot reach it', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${base}/conversations/Shop%20Alerts`]: {
        body: thread({ number: 'Shop Alerts' }),
      },
      [`GET ${base}/numbers`]: numbersRoute([]),
    });
    renderApp(`/messaging/inbox/${encodeURIComponent('Shop Alerts')}`, {
      loggedIn: true,
    });
    expect(
      await screen.findByRole('heading', { name: 'Shop Alerts', level: 1 }),
    ).toBeVisible();
    const form = await screen.findByRole('form', {
      name: 'Reply to Shop Alerts',
    });
    expect(within(form).getByRole('status')).toHaveTextContent(
      'Replies cannot be sent to Shop Alerts: messages go to phone numbers of 6 to 15 digits.',
    );
    expect(within(form).getByLabelText('Reply')).toBeDisabled();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });
});

describe("A client's conversations on the admin client page", () => {
  it('are listed for staff through the admin calls, and a number opens its thread, read only, in the side panel', async () => {
    const admin = `/api/admin/clients/${client.id}`;
    const { requests } = mockApi({
      'GET /api/users/me': { body: makeUser({ roles: ['ROLE_CLIENT_VIEW'] }) },
      [`GET ${admin}`]: { body: client },
      [`GET ${admin}/balances/default`]: {
        body: makeBalance({ id: client.id }),
      },
      [`GET ${admin}/messages`]: {
        body: { messages: [], total: 0, count: 0, offset: 0 },
      },
      [`GET ${admin}/numbers`]: { body: { numbers: [] } },
      [`GET ${admin}/conversations`]: conversationsRoute([conversation()]),
      [`GET ${admin}/conversations/${remote}`]: { body: thread() },
    });
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    const section = await screen.findByRole('region', {
      name: 'Conversations',
    });
    const table = await within(section).findByRole('table', {
      name: 'Conversations of the client, 1 to 1 of 1',
    });
    await user.click(
      within(table).getByRole('button', { name: '+447700900123' }),
    );
    const panel = await screen.findByRole('dialog', {
      name: 'Conversation with +447700900123',
    });
    const log = await within(panel).findByRole('log', {
      name: 'Messages with +447700900123',
    });
    expect(within(log).getAllByRole('listitem')).toHaveLength(2);
    // Staff read; only the owner replies.
    expect(within(panel).queryByRole('form')).toBeNull();
    expect(
      requests
        .filter((r) => r.path.includes('/conversations'))
        .map((r) => r.path),
    ).toEqual([`${admin}/conversations`, `${admin}/conversations/${remote}`]);
  });
});
