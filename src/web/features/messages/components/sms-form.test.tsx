import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../testing/msw-server';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { mockApi } from '../../../testing/mock-api';
import { makeBalance, makeClient } from '../../../testing/test-data';
import {
  SendSmsSchema,
  type SendSmsInput,
} from '../../../../shared/schemas/messages';
import type { Quote } from '../../../../shared/schemas/prices';

const client = makeClient();
const smsPath = `/api/clients/${client.id}/messages/sms`;

function preview() {
  const text = within(
    screen.getByRole('region', { name: 'JSON preview' }),
  ).getByText(/"sender"/).textContent;
  return JSON.parse(text ?? '{}') as Record<string, string>;
}

// Typing a long body key by key is slow on a loaded machine.
describe('SMS form', { timeout: 15_000 }, () => {
  it('/messaging goes to /messaging/sms; the sender is the short name and read-only', async () => {
    mockApi(shellRoutes());
    renderApp('/messaging', { loggedIn: true });
    const sender = await screen.findByLabelText('Sender');
    expect(currentPath()).toBe('/messaging/sms');
    expect(sender).toHaveValue('Skyline');
    expect(sender).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Recipient')).toHaveAccessibleDescription(
      /phone number with its country code/,
    );
    expect(screen.getByLabelText('Body')).toBeInTheDocument();
    expect(screen.getByLabelText('Reference')).toBeInTheDocument();
  });

  it('previews the form as JSON, live, with the recipient cleaned', async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    await user.type(
      await screen.findByLabelText('Recipient'),
      '+44 (0)7700-900.123',
    );
    await user.type(screen.getByLabelText('Body'), 'Hi');
    expect(preview()).toEqual({
      sender: 'Skyline',
      recipient: '44(0)7700900123',
      body: 'Hi',
      reference: '',
    });
  });

  it('checks sender, then recipient, then body; the reference may be empty', () => {
    // The form shows the shared schema's first refusal, in field order.
    const firstProblem = (values: SendSmsInput) =>
      SendSmsSchema.safeParse(values).error?.issues[0]?.message ?? null;
    const empty = { sender: '', recipient: '', body: '', reference: '' };
    const recipient = '447700900123';
    expect(firstProblem(empty)).toBe('Sender cannot be empty');
    expect(firstProblem({ ...empty, sender: 'S' })).toBe(
      'Recipient cannot be empty',
    );
    expect(firstProblem({ ...empty, sender: 'S', recipient })).toBe(
      'Body cannot be empty',
    );
    expect(
      firstProblem({ ...empty, sender: 'S', recipient, body: 'b' }),
    ).toBeNull();
  });

  it('alerts in the order sender, recipient, body and sends nothing', async () => {
    const { requests } = mockApi(shellRoutes());
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    const send = await screen.findByRole('button', { name: 'Send SMS' });
    await user.click(send);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Recipient cannot be empty',
    );
    await user.type(screen.getByLabelText('Recipient'), '+44 7700 900123');
    await user.click(send);
    expect(screen.getByRole('alert')).toHaveTextContent('Body cannot be empty');
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('drops a leading 00 from the recipient, and refuses a national number naming why', async () => {
    const { requests } = mockApi(shellRoutes());
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    const recipient = await screen.findByLabelText('Recipient');
    await user.type(recipient, '+00 44 7700 900123');
    await user.type(screen.getByLabelText('Body'), 'Hi');
    expect(preview().recipient).toBe('447700900123');
    await user.clear(recipient);
    await user.type(recipient, '07700 900123');
    await user.click(screen.getByRole('button', { name: 'Send SMS' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Recipient is a national number (it begins with 0): give it with its country code',
    );
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it("sends the cleaned recipient, says 'SMS Sent', resets the form and reloads the balance", async () => {
    let amount = 12.5;
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET /api/clients/${client.id}/balances/default`]: () => ({
        body: makeBalance({ amount }),
      }),
      [`POST ${smsPath}`]: () => {
        amount = 12.45;
        return { status: 201, body: { id: 'm1' } };
      },
    });
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    const balance = within(
      await screen.findByRole('region', { name: 'Balance' }),
    );
    expect(await balance.findByText('EUR 12.50')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Recipient'), '+44 7700-900.123');
    await user.type(screen.getByLabelText('Body'), 'Hello there');
    await user.type(screen.getByLabelText('Reference'), 'order-7');
    await user.click(screen.getByRole('button', { name: 'Send SMS' }));

    expect(await screen.findByRole('status')).toHaveTextContent('SMS Sent');
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      sender: 'Skyline',
      recipient: '447700900123',
      body: 'Hello there',
      reference: 'order-7',
    });
    expect(screen.getByLabelText('Recipient')).toHaveValue('');
    expect(screen.getByLabelText('Body')).toHaveValue('');
    expect(screen.getByLabelText('Sender')).toHaveValue('Skyline');
    expect(await balance.findByText('EUR 12.45')).toBeInTheDocument();
    // The link to the message sits in the form, just above Send SMS, where the eye is.
    const link = within(
      screen.getByText(/^Your last message is in the/),
    ).getByRole('link', { name: 'Message Log' });
    expect(link).toHaveAttribute('href', '#/messaging/log?message=m1');
    const note = link.closest('p')!;
    expect(note.closest('form')).not.toBeNull();
    expect(note.nextElementSibling).toContainElement(
      screen.getByRole('button', { name: 'Send SMS' }),
    );
  });

  it("402 alerts 'Failed to send. Not enough Balance.' and keeps the form", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi(shellRoutes());
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    await user.type(await screen.findByLabelText('Recipient'), '447700900123');
    await user.type(screen.getByLabelText('Body'), 'Hello');
    server.use(
      http.post(smsPath, () =>
        HttpResponse.json(
          {
            statusCode: 402,
            error: 'Payment Required',
            message: 'Not enough balance',
          },
          { status: 402 },
        ),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Send SMS' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to send. Not enough Balance.',
    );
    expect(screen.getByLabelText('Body')).toHaveValue('Hello');
  });

  it('a recipient refused by the server (403, opted out since the quote) is shown as the server says it, without signing out', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi(shellRoutes());
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    await user.type(await screen.findByLabelText('Recipient'), '447700900123');
    await user.type(screen.getByLabelText('Body'), 'Hello');
    const refusal =
      "Sending to +447700900123 is not allowed: the recipient opted out of this client's messages";
    server.use(
      http.post(smsPath, () =>
        HttpResponse.json(
          {
            statusCode: 403,
            error: 'Forbidden',
            code: 'recipient_opted_out',
            message: refusal,
          },
          { status: 403 },
        ),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Send SMS' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(currentPath()).toBe('/messaging/sms');
    expect(window.localStorage.getItem('email')).not.toBeNull();
  });

  it('counts segments live: encoding, room left, price, balance after, and UCS-2 culprits', async () => {
    mockApi(shellRoutes());
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    const body = await screen.findByLabelText('Body');
    await within(screen.getByRole('region', { name: 'Balance' })).findByText(
      'EUR 12.50',
    );
    const facts = () => {
      const grid = screen.getByText('Encoding').closest('dl');
      return Object.fromEntries(
        within(grid as HTMLElement)
          .getAllByRole('term')
          .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
      );
    };
    await user.type(body, 'Hello');
    expect(facts()).toEqual({
      Encoding: 'GSM-7',
      'Left in segment': '155',
      Segments: '1',
      // No quote (no recipient yet): the default price.
      'Price per segment': 'EUR 0.05',
      Price: 'EUR 0.05',
      'Balance after sending': 'EUR 12.45',
    });
    await user.type(body, ' ünd €');
    // € is a GSM-7 extension character (two septets); ü is in the basic set.
    expect(facts()['Left in segment']).toBe(String(160 - 12));
    await user.type(body, ' 😀');
    expect(facts()).toMatchObject({
      Encoding: 'UCS-2',
      'Left in segment': String(70 - 14),
    });
    expect(screen.getByText(/UCS-2 because of/)).toHaveTextContent(
      'UCS-2 because of: 😀',
    );
    await user.clear(body);
    await user.type(body, 'x'.repeat(161));
    expect(facts()).toMatchObject({ Segments: '2', Price: 'EUR 0.10' });
  });

  function quoteOf(recipient: string, body: string): Quote {
    const premium = recipient.startsWith('4490');
    const cheap = recipient.startsWith('31');
    const segments = body.length > 160 ? 2 : 1;
    const price = premium
      ? 1.5
      : recipient.startsWith('44')
        ? 0.0725
        : cheap
          ? 0.002475
          : 0.05;
    const prefix = premium ? '4490' : recipient.startsWith('44') ? '44' : null;
    return {
      recipient,
      pricePrefix: cheap ? '31' : prefix,
      pricePerSegment: price,
      encoding: 'GSM-7',
      segments,
      // The server rounds the amount half up to 4 places (2 × 0.002475 → 0.005).
      amount: cheap ? segments * 0.0025 : price * segments,
      allowed: !premium,
      reason: premium
        ? 'Sending to +449012345678 (UK premium, prefix 4490) is not allowed: this destination is blocked'
        : null,
    };
  }
  const BLOCKED =
    'Sending to +449012345678 (UK premium, prefix 4490) is not allowed: this destination is blocked';
  const quotePath = `GET /api/clients/${client.id}/quote`;
  const quoteRoute = ({ search }: { search: string }) => {
    const params = new URLSearchParams(search);
    return {
      body: quoteOf(params.get('recipient') ?? '', params.get('body') ?? ''),
    };
  };

  it('asks the quote once typing pauses and shows the price per segment of that destination and the total', async () => {
    const { requests } = mockApi({ ...shellRoutes(), [quotePath]: quoteRoute });
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    await user.type(
      await screen.findByLabelText('Recipient'),
      '+44 7700 900123',
    );
    await user.click(screen.getByLabelText('Body'));
    await user.paste('x'.repeat(161));
    const price = await screen.findByText('EUR 0.0725');
    expect(price.closest('dd')).toHaveTextContent('EUR 0.0725 (prefix 44)');
    // 2 segments × 0.0725, shown with two decimals as every amount.
    expect(screen.getByText('Price').nextElementSibling).toHaveTextContent(
      'EUR 0.15',
    );
    const quotes = requests.filter((r) => r.path.endsWith('/quote'));
    // Debounced: not one call per key pressed.
    expect(quotes.length).toBeLessThanOrEqual(2);
    expect(new URLSearchParams(quotes.at(-1)?.search).get('recipient')).toBe(
      '447700900123',
    );
    await user.clear(screen.getByLabelText('Recipient'));
    await user.type(screen.getByLabelText('Recipient'), '33612345678');
    expect(
      (await screen.findByText(/\(default price\)/)).closest('dd'),
    ).toHaveTextContent('EUR 0.05 (default price)');
    // The total is the quote's, rounded as the send charges it, not the exact product.
    await user.clear(screen.getByLabelText('Recipient'));
    await user.type(screen.getByLabelText('Recipient'), '31612345678');
    await screen.findByText('EUR 0.002475');
    expect(screen.getByText('Price').nextElementSibling).toHaveTextContent(
      'EUR 0.01',
    );
  });

  it('says a destination is not allowed before Send is pressed, and Send is off until the recipient changes', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      [quotePath]: quoteRoute,
      [`POST ${smsPath}`]: { status: 201, body: { id: 'm1' } },
    });
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    await user.type(await screen.findByLabelText('Recipient'), '449012345678');
    await user.type(screen.getByLabelText('Body'), 'Win a prize');
    expect(await screen.findByRole('alert')).toHaveTextContent(BLOCKED);
    const send = screen.getByRole('button', { name: 'Send SMS' });
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription(BLOCKED);
    await user.clear(screen.getByLabelText('Recipient'));
    await user.type(screen.getByLabelText('Recipient'), '447700900123');
    await waitFor(() => expect(send).toBeEnabled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('refuses with the reason instead of sending when Send is pressed before the quote has come', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      [quotePath]: quoteRoute,
      [`POST ${smsPath}`]: { status: 201, body: { id: 'm1' } },
    });
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    const recipient = await screen.findByLabelText('Recipient');
    // Typed and sent at once: no pause for the live quote.
    await user.click(recipient);
    await user.paste('449012345678');
    await user.click(screen.getByLabelText('Body'));
    await user.paste('Win');
    await user.click(screen.getByRole('button', { name: 'Send SMS' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(BLOCKED);
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('asks for a client first when there is none', async () => {
    mockApi(shellRoutes({ clients: [] }));
    renderApp('/messaging/sms', { loggedIn: true });
    expect(
      await screen.findByText('You need a client to send messages.'),
    ).toBeInTheDocument();
  });
});
