import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../../../shared/limits';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeClient } from '../../../testing/test-data';

const client = makeClient({ name: 'Web shop' });
const KEY = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
const NEW_KEY = 'whsec_ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zyxwvut';

function routes(
  statusCallbackUrl: string | null,
  testStatus = 200,
  inboundCallbackUrl: string | null = null,
) {
  const shown = {
    ...client,
    secretLastUsedAt: null,
    statusCallbackUrl,
    statusCallbackSigningKey:
      statusCallbackUrl || inboundCallbackUrl ? KEY : null,
    inboundCallbackUrl,
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
    expect(await section.findByLabelText('Signing key')).toHaveValue(
      SECRET_MASK,
    );
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
    await user.click(section.getByRole('button', { name: 'Send test event' }));
    expect(
      await section.findByText(
        'Your endpoint answered 500 in 7 ms: only a 2xx status counts as received.',
      ),
    ).toBeInTheDocument();
  });

  it('masks the signing key like a client secret: Show reveals it, Copy copies it', async () => {
    mockApi(routes('https://hooks.example.com/sms'));
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    const section = within(
      await screen.findByRole('region', { name: 'Status Callback' }),
    );
    const key = section.getByLabelText('Signing key');
    expect(key).toHaveValue(SECRET_MASK);
    expect(section.queryByText(KEY)).toBeNull();
    await user.click(section.getByRole('button', { name: 'Copy signing key' }));
    expect(await navigator.clipboard.readText()).toBe(KEY);
    await user.click(section.getByRole('button', { name: 'Show signing key' }));
    expect(key).toHaveValue(KEY);
    await user.click(section.getByRole('button', { name: 'Hide signing key' }));
    expect(key).toHaveValue(SECRET_MASK);
  });

  it('names the field as the form labels it in a server refusal, and drops it once the URL changes', async () => {
    const routesWithRefusal = {
      ...routes(null),
      [`PUT /api/clients/${client.id}`]: {
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          message:
            'statusCallbackUrl must not point to a private address (10.0.0.1)',
        },
      },
    };
    mockApi(routesWithRefusal);
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    const section = within(
      await screen.findByRole('region', { name: 'Status Callback' }),
    );
    const field = section.getByLabelText('Status callback URL');
    await user.type(field, 'https://10.0.0.1/hook');
    await user.click(section.getByRole('button', { name: 'Save' }));
    const refusal =
      'Status callback URL must not point to a private address (10.0.0.1)';
    expect(await section.findByText(refusal)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(section.queryByText(/statusCallbackUrl/)).toBeNull();
    await user.type(field, 'x');
    expect(section.queryByText(refusal)).toBeNull();
    expect(field).not.toHaveAttribute('aria-invalid');
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
    await user.click(section.getByRole('button', { name: 'Show signing key' }));
    expect(section.getByLabelText('Signing key')).toHaveValue(KEY);

    await user.click(section.getByRole('button', { name: 'Rotate key' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', {
        name: 'OK',
      }),
    );
    await waitFor(() =>
      expect(section.getByLabelText('Signing key')).toHaveValue(NEW_KEY),
    );
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

describe('inbound callback URL on the client page', () => {
  it('is a field of the same form, checked in the browser; a save sends only what changed', async () => {
    const inboundUrl = 'https://hooks.example.com/inbound';
    const base = routes('https://hooks.example.com/sms');
    const { requests } = mockApi({
      ...base,
      [`PUT /api/clients/${client.id}`]: {
        body: {
          ...client,
          secretLastUsedAt: null,
          statusCallbackUrl: 'https://hooks.example.com/sms',
          statusCallbackSigningKey: KEY,
          inboundCallbackUrl: inboundUrl,
        },
      },
    });
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    const section = within(
      await screen.findByRole('region', { name: 'Status Callback' }),
    );
    const field = section.getByLabelText('Inbound callback URL');
    expect(field).toHaveValue('');
    expect(field).toHaveAccessibleDescription(
      /Every message received on this client's numbers is sent here as a signed POST/,
    );
    // Checked in the browser as the server does: no request for a wrong URL.
    await user.type(field, 'ftp://nope');
    await user.click(section.getByRole('button', { name: 'Save' }));
    expect(
      await section.findByText(
        'Inbound callback URL must be an http or https URL',
      ),
    ).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(requests.filter((r) => r.method === 'PUT')).toEqual([]);
    await user.clear(field);
    await user.type(field, inboundUrl);
    await user.click(section.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('The inbound callback URL has been saved'),
    ).toBeInTheDocument();
    // The status callback URL, untouched, is not sent again.
    expect(
      requests.filter((r) => r.method === 'PUT').map((r) => r.body),
    ).toEqual([{ inboundCallbackUrl: inboundUrl }]);
    await waitFor(() => expect(field).toHaveValue(inboundUrl));
    expect(section.getByLabelText('Status callback URL')).toHaveValue(
      'https://hooks.example.com/sms',
    );
  });

  it('shows the saved URL, clears it with an empty field, and labels a server refusal with the field', async () => {
    const inboundUrl = 'https://hooks.example.com/inbound';
    const base = routes(null, 200, inboundUrl);
    const { requests } = mockApi({
      ...base,
      [`PUT /api/clients/${client.id}`]: {
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          message:
            'inboundCallbackUrl host hooks.example.com resolves to a private address (10.0.0.1)',
        },
      },
    });
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    const section = within(
      await screen.findByRole('region', { name: 'Status Callback' }),
    );
    const field = section.getByLabelText('Inbound callback URL');
    await waitFor(() => expect(field).toHaveValue(inboundUrl));
    // A client with only an inbound URL has the key that signs it.
    expect(section.getByLabelText('Signing key')).toHaveValue(SECRET_MASK);
    await user.clear(field);
    await user.click(section.getByRole('button', { name: 'Save' }));
    expect(
      requests.filter((r) => r.method === 'PUT').map((r) => r.body),
    ).toEqual([{ inboundCallbackUrl: null }]);
    const refusal =
      'Inbound callback URL host hooks.example.com resolves to a private address (10.0.0.1)';
    expect(await section.findByText(refusal)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(section.queryByText(/inboundCallbackUrl/)).toBeNull();
  });
});
