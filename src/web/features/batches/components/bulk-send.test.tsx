import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PriceList, Quote } from '../../../../shared/schemas/prices';
import { localToIso } from '../../../lib/send-at';
import { makeBatch, testBatchId } from '../../../testing/batch-data';
import { mockApi, type Route } from '../../../testing/mock-api';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeClient } from '../../../testing/test-data';

const client = makeClient();
const base = `/api/clients/${client.id}`;
const batchId = testBatchId;

const priceList: PriceList = {
  total: 3,
  count: 3,
  offset: 0,
  currency: 'EUR',
  defaultPricePerSegment: 0.05,
  prices: [
    {
      prefix: '44',
      name: 'United Kingdom',
      pricePerSegment: 0.07,
      blocked: false,
    },
    { prefix: '4490', name: 'UK premium', pricePerSegment: 1.5, blocked: true },
    { prefix: '33', name: 'France', pricePerSegment: 0.08, blocked: false },
  ],
};

function quoteOf(recipient: string): Quote {
  const uk = recipient.startsWith('44');
  const fr = recipient.startsWith('33');
  const us = recipient.startsWith('1');
  const price = uk ? 0.07 : fr ? 0.08 : 0.05;
  return {
    recipient,
    pricePrefix: uk ? '44' : fr ? '33' : null,
    pricePerSegment: price,
    encoding: 'GSM-7',
    segments: 1,
    amount: price,
    allowed: !us,
    reason: us
      ? `Sending to +${recipient} is not allowed for this client`
      : null,
  };
}

function serveBulk(extra: Record<string, Route> = {}) {
  return mockApi({
    ...shellRoutes(),
    'GET /api/prices': { body: priceList },
    [`GET ${base}/quote`]: ({ search }) => ({
      body: quoteOf(new URLSearchParams(search).get('recipient') ?? ''),
    }),
    [`GET ${base}/batches`]: {
      body: { total: 0, count: 0, offset: 0, batches: [] },
    },
    [`GET ${base}/batches/${batchId}`]: { body: makeBatch() },
    ...extra,
  });
}

async function openBulk() {
  const view = renderApp('/messaging/bulk', { loggedIn: true });
  const recipients = await screen.findByLabelText('Phone numbers', undefined, {
    timeout: 10_000,
  });
  return { ...view, recipients };
}

const counts = () =>
  within(screen.getByRole('region', { name: 'Recipients' })).getByRole(
    'status',
  );

/** Sends to the one recipient typed and confirms. */
async function sendToOne(user: ReturnType<typeof renderApp>['user']) {
  // The count follows the typing once it pauses.
  await user.click(
    await screen.findByRole('button', { name: 'Send to 1 recipient' }),
  );
  await user.click(
    within(await screen.findByRole('alertdialog')).getByRole('button', {
      name: 'OK',
    }),
  );
}

describe('Bulk send', { timeout: 20_000 }, () => {
  it('is a tab beside Send SMS and Message Log, and checks pasted numbers at once: valid, bad lines, duplicates', async () => {
    const { requests } = serveBulk();
    const { user, recipients } = await openBulk();
    const tabs = screen.getByRole('navigation', { name: 'Messaging' });
    expect(
      within(tabs).getByRole('link', { name: 'Bulk send' }),
    ).toHaveAttribute('aria-current', 'page');
    await user.click(recipients);
    await user.paste(
      'phone\n+44 7700 900123\nnot a number\n447700900123\n33612345678',
    );
    await waitFor(() =>
      expect(counts()).toHaveTextContent(
        '2 valid recipients1 duplicate removed1 bad lineHeader line skipped',
      ),
    );
    expect(
      within(screen.getByRole('list', { name: 'Bad lines' })).getByRole(
        'listitem',
      ),
    ).toHaveTextContent(
      'Line 3: not a number — Not a phone number of 6 to 15 digits',
    );
    await user.type(screen.getByLabelText('Body'), 'Hello');
    await user.click(
      await screen.findByRole('button', { name: 'Send to 2 recipients' }),
    );
    expect(
      await screen.findByText('Fix or remove the bad line before sending.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('reads an uploaded CSV, is fixed, prices each destination group, confirms count and total, sends and opens the batch', async () => {
    const { requests } = serveBulk({
      [`POST ${base}/batches`]: {
        status: 201,
        body: {
          id: batchId,
          total: 3,
          amount: 0.22,
          sendAt: null,
          dateCreated: '2026-11-26T10:00:00.000Z',
        },
      },
    });
    const { user, recipients } = await openBulk();
    await user.upload(
      screen.getByLabelText('Upload a CSV or text file'),
      new File(
        [
          'phone,name\n+44 7700 900123,Ada\n33612345678,Bea\n447700900123,Ada\nbad,Cid\n',
        ],
        'list.csv',
        { type: 'text/csv' },
      ),
    );
    await waitFor(() =>
      expect((recipients as HTMLTextAreaElement).value).toContain('bad,Cid'),
    );
    await waitFor(() => expect(counts()).toHaveTextContent('1 bad line'));
    expect(screen.getByRole('list', { name: 'Bad lines' })).toHaveTextContent(
      'Line 5: bad',
    );
    // Fixed in place: the bad line becomes a number.
    await user.clear(recipients);
    await user.click(recipients);
    await user.paste(
      'phone,name\n+44 7700 900123,Ada\n33612345678,Bea\n447700900123,Ada\n447700900999,Cid\n',
    );
    await waitFor(() =>
      expect(counts()).toHaveTextContent(
        '3 valid recipients1 duplicate removed0 bad lines',
      ),
    );
    await user.type(screen.getByLabelText('Body'), 'Hello');
    const price = screen.getByRole('region', { name: 'Price' });
    await waitFor(() =>
      expect(within(price).getByText('EUR 0.22')).toBeInTheDocument(),
    );
    const rows = within(price)
      .getAllByRole('row')
      .map((row) =>
        within(row)
          .queryAllByRole('cell')
          .map((cell) => cell.textContent),
      )
      .filter((cells) => cells.length > 0);
    expect(rows).toEqual([
      ['United Kingdom (+44)', '2', 'EUR 0.07', 'EUR 0.14'],
      ['France (+33)', '1', 'EUR 0.08', 'EUR 0.08'],
    ]);
    // Balance EUR 12.50 (shell stub) less the total.
    expect(within(price).getByText('EUR 12.28')).toBeInTheDocument();
    // One quote per destination group, whatever the number of recipients.
    const quoted = new Set(
      requests
        .filter((r) => r.path.endsWith('/quote'))
        .map((r) => new URLSearchParams(r.search).get('recipient')),
    );
    expect([...quoted].sort()).toEqual(['33612345678', '447700900123']);

    await user.click(
      await screen.findByRole('button', { name: 'Send to 3 recipients' }),
    );
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Send this message to 3 recipients for EUR 0.22?',
    });
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(currentPath()).toBe(`/messaging/bulk/${batchId}`),
    );
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      recipients: ['447700900123', '33612345678', '447700900999'],
      body: 'Hello',
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Batch' }),
    ).toBeInTheDocument();
  });

  it('refuses to send to a destination the quote refuses, and says why', async () => {
    const { requests } = serveBulk();
    const { user, recipients } = await openBulk();
    await user.click(recipients);
    await user.paste('447700900123\n15550100123');
    await user.type(screen.getByLabelText('Body'), 'Hi');
    expect(
      await screen.findByText(
        /^Remove the recipients of refused destinations before sending: Sending to \+15550100123 is not allowed/,
      ),
    ).toBeInTheDocument();
    await user.click(
      await screen.findByRole('button', { name: 'Send to 2 recipients' }),
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('shows the refusals of the server: 402 as the balance, 400 with its entries', async () => {
    let answer = {
      status: 402,
      body: {
        statusCode: 402,
        error: 'Payment Required',
        message: 'Not enough balance',
      },
    };
    serveBulk({ [`POST ${base}/batches`]: () => answer });
    const { user, recipients } = await openBulk();
    await user.click(recipients);
    await user.paste('447700900123');
    await user.type(screen.getByLabelText('Body'), 'Hi');
    const send = () => sendToOne(user);
    await send();
    expect(
      await screen.findByText('Failed to send. Not enough Balance.'),
    ).toBeInTheDocument();
    answer = {
      status: 400,
      body: {
        statusCode: 400,
        error: 'Bad Request',
        message: 'recipients[0] is not a phone number of 6 to 15 digits',
      },
    };
    await send();
    expect(
      await screen.findByText(
        'recipients[0] is not a phone number of 6 to 15 digits',
      ),
    ).toBeInTheDocument();
  });

  it('shows a recipient the server refuses (403, opted out) as the server says it, and stays signed in', async () => {
    serveBulk({
      [`POST ${base}/batches`]: {
        status: 403,
        body: {
          statusCode: 403,
          error: 'Forbidden',
          code: 'recipient_opted_out',
          message:
            "Sending to +447700900123 is not allowed: the recipient opted out of this client's messages",
        },
      },
    });
    const { user, recipients } = await openBulk();
    await user.click(recipients);
    await user.paste('447700900123');
    await user.type(screen.getByLabelText('Body'), 'Hi');
    await sendToOne(user);
    expect(
      await screen.findByText(
        "Sending to +447700900123 is not allowed: the recipient opted out of this client's messages",
      ),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/messaging/bulk');
    expect(window.localStorage.getItem('email')).not.toBeNull();
  });

  it('sends an Idempotency-Key per confirmed send, the same when that send is tried again', async () => {
    let answer: { status: number; body: unknown } = {
      status: 503,
      body: { statusCode: 503, error: 'Service Unavailable', message: 'Busy' },
    };
    const { requests } = serveBulk({ [`POST ${base}/batches`]: () => answer });
    const { user, recipients } = await openBulk();
    await user.click(recipients);
    await user.paste('447700900123');
    const body = screen.getByLabelText('Body');
    await user.type(body, 'Hi');
    const send = () => sendToOne(user);
    const keys = async (n: number) => {
      await waitFor(() =>
        expect(requests.filter((r) => r.method === 'POST')).toHaveLength(n),
      );
      return requests
        .filter((r) => r.method === 'POST')
        .map((r) => r.headers.get('Idempotency-Key'));
    };
    await send();
    const [first] = await keys(1);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    // The same send tried again after its failure: the same key.
    await send();
    expect((await keys(2))[1]).toBe(first);
    // Another request (the body changed): another key.
    await user.type(body, '!');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await send();
    const third = (await keys(3))[2];
    expect(third).toMatch(/^[0-9a-f]{32}$/);
    expect(third).not.toBe(first);
    expect(requests.filter((r) => r.method === 'POST')[2]!.body).toMatchObject({
      body: 'Hi!',
    });
    // The try that gets through is still that send's: its key.
    answer = {
      status: 201,
      body: {
        id: batchId,
        total: 1,
        amount: 0.07,
        sendAt: null,
        dateCreated: '2026-11-26T10:00:00.000Z',
      },
    };
    await send();
    expect((await keys(4))[3]).toBe(third);
    await waitFor(() =>
      expect(currentPath()).toBe(`/messaging/bulk/${batchId}`),
    );
  });

  it('sends later: the picked time in the browser zone with its offset, checked first', async () => {
    const { requests } = serveBulk({
      [`POST ${base}/batches`]: {
        status: 201,
        body: {
          id: batchId,
          total: 1,
          amount: 0.07,
          sendAt: '2026-12-01T09:00:00.000Z',
          dateCreated: '2026-11-26T10:00:00.000Z',
        },
      },
    });
    const { user, recipients } = await openBulk();
    await user.click(recipients);
    await user.paste('447700900123');
    await user.type(screen.getByLabelText('Body'), 'Hi');
    await user.click(screen.getByRole('checkbox', { name: 'Send later' }));
    const picker = screen.getByLabelText(/^Send at \(UTC[+-]\d{2}:\d{2}\)$/);
    fireEvent.change(picker, { target: { value: '2020-01-01T09:00' } });
    await user.click(
      await screen.findByRole('button', { name: 'Send to 1 recipient' }),
    );
    expect(
      await screen.findByText('Send at must not be in the past'),
    ).toBeInTheDocument();
    const soon = new Date(Date.now() + 2 * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${soon.getFullYear()}-${pad(soon.getMonth() + 1)}-${pad(soon.getDate())}T09:00`;
    fireEvent.change(picker, { target: { value: local } });
    await user.click(
      await screen.findByRole('button', { name: 'Send to 1 recipient' }),
    );
    const dialog = await screen.findByRole('alertdialog', {
      name: /^Schedule for .+ this message to 1 recipient for EUR 0\.07\?$/,
    });
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
        recipients: ['447700900123'],
        body: 'Hi',
        sendAt: localToIso(local),
      }),
    );
  });

  it('lists the batches with their progress, each opening its page', async () => {
    serveBulk({
      [`GET ${base}/batches`]: {
        body: {
          total: 1,
          count: 1,
          offset: 0,
          batches: [makeBatch({ total: 2, states: { DELIVERED: 2 } })],
        },
      },
    });
    const { user } = await openBulk();
    const list = screen.getByRole('region', { name: 'Batches' });
    expect(
      await within(list).findByRole('progressbar', {
        name: 'Messages in a final state',
      }),
    ).toHaveAttribute('aria-valuetext', '2 of 2 final (100 %)');
    await user.click(within(list).getByRole('link'));
    expect(currentPath()).toBe(`/messaging/bulk/${batchId}`);
  });
});
