import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { localToIso } from '../../../lib/send-at';
import {
  makeMessage,
  makeMessageDetail,
  messagePage,
} from '../../../testing/message-data';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeClient } from '../../../testing/test-data';

const client = makeClient();
const messages = `/api/clients/${client.id}/messages`;

describe('Scheduled sends', { timeout: 20_000 }, () => {
  it('a scheduled message is cancelled from its panel after a confirmation, then shows Canceled and the refund', async () => {
    let state: 'SCHEDULED' | 'CANCELED' = 'SCHEDULED';
    const reason = () =>
      state === 'CANCELED' ? 'canceled by the owner' : null;
    const scheduled = {
      state,
      sendAt: '2026-12-01T09:00:00.000Z',
      deliveryMethod: null,
      simulated: false,
    };
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${messages}`]: () => ({
        body: messagePage([makeMessage({ ...scheduled, state })]),
      }),
      [`GET ${messages}/${makeMessage().id}`]: () => ({
        body: makeMessageDetail({ ...scheduled, state, error: reason() }),
      }),
      [`POST ${messages}/${makeMessage().id}/cancel`]: () => {
        state = 'CANCELED';
        return { body: makeMessage({ ...scheduled, state, error: reason() }) };
      },
    });
    const { user } = renderApp('/messaging/log', { loggedIn: true });
    const table = await screen.findByRole('table', undefined, {
      timeout: 10_000,
    });
    expect(within(table).getByText('Scheduled')).toBeInTheDocument();
    await user.click(
      within(table).getByRole('button', { name: '447700900123' }),
    );
    const panel = await screen.findByRole('dialog', {
      name: 'Message to 447700900123',
    });
    await user.click(
      await within(panel).findByRole('button', {
        name: 'Cancel scheduled message',
      }),
    );
    const confirm = await screen.findByRole('alertdialog', {
      name: 'Cancel this message to 447700900123? EUR 0.05 is refunded.',
    });
    await user.click(within(confirm).getByRole('button', { name: 'OK' }));
    expect(
      await screen.findByText('Message canceled and refunded'),
    ).toBeInTheDocument();
    const fields = within(panel).getByRole('region', { name: 'Message' });
    await waitFor(() =>
      expect(within(fields).getByText('Canceled')).toBeInTheDocument(),
    );
    expect(
      within(fields).getByText('Refunded').nextElementSibling,
    ).toHaveTextContent('EUR 0.05');
    // Who cancelled it (the message's error).
    expect(
      within(fields).getByText('Reason').nextElementSibling,
    ).toHaveTextContent('canceled by the owner');
    expect(
      within(panel).queryByRole('button', { name: 'Cancel scheduled message' }),
    ).not.toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('the Send SMS form sends later: the picked time with its UTC offset, checked first', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      [`POST ${messages}/sms`]: {
        status: 201,
        body: makeMessage({ state: 'SCHEDULED' }),
      },
    });
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    await user.type(
      await screen.findByLabelText('Recipient', undefined, { timeout: 10_000 }),
      '447700900123',
    );
    await user.type(screen.getByLabelText('Body'), 'Later');
    await user.click(screen.getByRole('checkbox', { name: 'Send later' }));
    const picker = screen.getByLabelText(/^Send at \(UTC[+-]\d{2}:\d{2}\)$/);
    fireEvent.change(picker, { target: { value: '2020-01-01T09:00' } });
    await user.click(screen.getByRole('button', { name: 'Send SMS' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Send at must not be in the past',
    );
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    const soon = new Date(Date.now() + 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${soon.getFullYear()}-${pad(soon.getMonth() + 1)}-${pad(soon.getDate())}T09:00`;
    fireEvent.change(picker, { target: { value: local } });
    await user.click(screen.getByRole('button', { name: 'Send SMS' }));
    expect(await screen.findByText('SMS Scheduled')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      sender: 'Skyline',
      recipient: '447700900123',
      body: 'Later',
      reference: '',
      sendAt: localToIso(local),
    });
  });
});
