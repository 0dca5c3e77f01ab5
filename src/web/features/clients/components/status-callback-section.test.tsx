import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeClient } from '../../../testing/test-data';

const client = makeClient({ name: 'Web shop' });
const KEY = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const NEW_KEY = 'whsec_ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zyxwvut';

function routes(statusCallbackUrl: string | null, testStatus = 200) {
  const shown = {
    ...client,
    secretLastUsedAt: null,
    statusCallbackUrl,
    statusCallbackSigningKey: statusCallbackUrl ? KEY : null,
  };
  return {
    ...shellRoutes({ clients: [client] }),
    [`GET /api/clients/${client.id}`]: { body: shown },
    [`PUT /api/clients/${client.id}`]: {
      body: {
        ...shown,
        statusCallbackUrl: 'https://hooks.example.com/sms',
        statusCallbackSigningKey: KEY,
      },
    },
    [`POST /api/clients/${client.id}/statusCallback/rotateKey`]: {
      body: { statusCallbackSigningKey: NEW_KEY },
    },
    [`POST /api/clients/${client.id}/statusCallback/test`]: {
      body:
        testStatus === 200
          ? { ok: true, status: 200, error: null, durationMs: 42 }
          : {
              ok: false,
              status: testStatus,
              error: `receiver answered HTTP ${testStatus}`,
              durationMs: 7,
            },
    },
  };
}

describe('status callback on the client page', () => {
  it('saves a URL with PUT, then shows the signing key and Send test event', async () => {
    const { requests } = mockApi(routes(null));
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    const section = within(
      await screen.findByRole('region', { name: 'Status Callback' }),
    );
    expect(
      section.queryByRole('button', { name: 'Send test event' }),
    ).toBeNull();
    expect(section.queryByText('Signing key')).toBeNull();
    const field = section.getByLabelText('Status callback URL');
    await user.type(field, 'ftp://nope');
    await user.click(section.getByRole('button', { name: 'Save' }));
    expect(requests.filter((r) => r.method === 'PUT')).toEqual([]);
    await user.clear(field);
    await user.type(field, 'https://hooks.example.com/sms');
    await user.click(section.getByRole('button', { name: 'Save' }));
    expect(await section.findByText(KEY)).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')?.body).toEqual({
      statusCallbackUrl: 'https://hooks.example.com/sms',
    });
    expect(
      section.getByRole('button', { name: 'Send test event' }),
    ).toBeInTheDocument();
  });

  it('Send test event says what the receiver answered', async () => {
    mockApi(routes('https://hooks.example.com/sms', 500));
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    const section = within(
      await screen.findByRole('region', { name: 'Status Callback' }),
    );
    expect(section.getByLabelText('Status callback URL')).toHaveValue(
      'https://hooks.example.com/sms',
    );
    expect(section.getByText(KEY)).toBeInTheDocument();
    await user.click(section.getByRole('button', { name: 'Send test event' }));
    expect(
      await section.findByText(
        'The test event was not taken: receiver answered HTTP 500',
      ),
    ).toBeInTheDocument();
  });

  it('Rotate key asks first; Cancel keeps the key, OK shows the new one', async () => {
    const { requests } = mockApi(routes('https://hooks.example.com/sms'));
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    const section = within(
      await screen.findByRole('region', { name: 'Status Callback' }),
    );
    const rotateCalls = () =>
      requests.filter((r) => r.path.endsWith('/statusCallback/rotateKey'));
    await user.click(section.getByRole('button', { name: 'Rotate key' }));
    const question = screen.getByRole('alertdialog', {
      name: /rotate the signing key/,
    });
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(rotateCalls()).toEqual([]);
    expect(section.getByText(KEY)).toBeInTheDocument();

    await user.click(section.getByRole('button', { name: 'Rotate key' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', {
        name: 'OK',
      }),
    );
    expect(await section.findByText(NEW_KEY)).toBeInTheDocument();
    expect(section.queryByText(KEY)).toBeNull();
    expect(rotateCalls()).toHaveLength(1);
    expect(rotateCalls()[0]).toMatchObject({ method: 'POST' });
    expect(
      await screen.findByText('The signing key has been rotated'),
    ).toBeInTheDocument();
  });

  it('has no Rotate key before a URL gave the client a key', async () => {
    mockApi(routes(null));
    renderApp(`/clients/${client.id}`, { loggedIn: true });
    const section = within(
      await screen.findByRole('region', { name: 'Status Callback' }),
    );
    expect(section.queryByRole('button', { name: 'Rotate key' })).toBeNull();
  });
});
