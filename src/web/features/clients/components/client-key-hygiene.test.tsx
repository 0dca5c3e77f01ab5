import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeClient } from '../../../testing/test-data';
import type {
  Client,
  ClientKeyUsage,
} from '../../../../shared/schemas/clients';
import { formatDateTime } from '../../../lib/format';

const client = makeClient({ name: 'Web shop' });
const QUESTION =
  'Are you sure you want to reset the secret? The existing secret will no longer be usable';

function routes(
  shown: Client & ClientKeyUsage = { ...client, secretLastUsedAt: null },
) {
  return {
    ...shellRoutes({ clients: [client] }),
    [`GET /api/clients/${client.id}`]: { body: shown },
    [`POST /api/clients/${client.id}/resetSecret`]: {
      body: { ...client, secret: 'brand-new-secret' },
    },
  };
}

describe('reset secret with a grace period', () => {
  it('by default the question is the spec\u2019s, no grace is chosen and the body stays empty', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Reset Secret' }),
    );
    const dialog = within(screen.getByRole('alertdialog', { name: QUESTION }));
    const grace = dialog.getByLabelText('Keep the old secret working for');
    expect(grace).toHaveDisplayValue('No grace period');
    expect(
      dialog.getAllByRole('button').map((button) => button.textContent),
    ).toEqual(['Cancel', 'OK']);
    await user.click(dialog.getByRole('button', { name: 'OK' }));
    await screen.findByRole('dialog', { name: 'New secret' });
    const post = requests.find((r) => r.method === 'POST');
    expect(post?.body).toBeUndefined();
    expect(screen.queryByText(/previous secret keeps working/)).toBeNull();
  });

  it('a chosen grace period is sent as graceSeconds and said afterwards', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Reset Secret' }),
    );
    const dialog = within(screen.getByRole('alertdialog', { name: QUESTION }));
    expect(dialog.queryByText(/old secret keeps working until/)).toBeNull();
    await user.selectOptions(
      dialog.getByLabelText('Keep the old secret working for'),
      '24 hours',
    );
    // The spec's question stays word for word; the note under it says until when.
    expect(
      screen.getByRole('alertdialog', { name: QUESTION }),
    ).toBeInTheDocument();
    // A day from now, as shown (a minute may turn while the test runs).
    const inADay = (offsetMs: number) =>
      `With this grace period, the old secret keeps working until ${formatDateTime(
        new Date(Date.now() + 86_400_000 + offsetMs).toISOString(),
      )}.`;
    expect([inADay(-60_000), inADay(0)]).toContain(
      dialog.getByText(/old secret keeps working until/).textContent,
    );
    await user.click(dialog.getByRole('button', { name: 'OK' }));
    await screen.findByRole('dialog', { name: 'New secret' });
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      graceSeconds: 86_400,
    });
    expect(
      screen.getByText(/^The previous secret keeps working until /),
    ).toHaveAttribute('role', 'status');
  });

  it('Cancel forgets the choice: the next confirmation starts with no grace', async () => {
    const { requests } = mockApi(routes());
    const { user } = renderApp(`/clients/${client.id}`, { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Reset Secret' }),
    );
    let dialog = within(screen.getByRole('alertdialog', { name: QUESTION }));
    await user.selectOptions(
      dialog.getByLabelText('Keep the old secret working for'),
      '7 days',
    );
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Reset Secret' }));
    dialog = within(screen.getByRole('alertdialog', { name: QUESTION }));
    expect(
      dialog.getByLabelText('Keep the old secret working for'),
    ).toHaveDisplayValue('No grace period');
    await user.click(dialog.getByRole('button', { name: 'OK' }));
    await screen.findByRole('dialog', { name: 'New secret' });
    expect(requests.find((r) => r.method === 'POST')?.body).toBeUndefined();
  });
});

describe('secret last used', () => {
  it("says 'Never' until the secret is used", async () => {
    mockApi(routes());
    renderApp(`/clients/${client.id}`, { loggedIn: true });
    const card = await screen.findByRole('button', {
      name: 'Web shop: edit the name',
    });
    expect(card).toHaveTextContent('Secret last used');
    expect(card).toHaveTextContent(/Secret last usedNever/);
  });

  it('shows when the secret was last used on the client page', async () => {
    const usedAt = '2026-11-23T08:15:00.000Z';
    mockApi({
      ...routes({ ...client, secretLastUsedAt: usedAt }),
      'GET /api/clients': {
        body: {
          clients: [{ ...client, secretLastUsedAt: usedAt }],
          total: 1,
          count: 30,
          offset: 0,
        },
      },
    });
    renderApp(`/clients/${client.id}`, { loggedIn: true });
    expect(
      await screen.findByRole('button', { name: 'Web shop: edit the name' }),
    ).toHaveTextContent(`Secret last used${formatDateTime(usedAt)}`);
  });

  it('the client cards of My Clients show it too', async () => {
    const usedAt = '2026-11-23T08:15:00.000Z';
    const used: Client & ClientKeyUsage = {
      ...client,
      secretLastUsedAt: usedAt,
    };
    mockApi(shellRoutes({ clients: [used] }));
    renderApp('/clients', { loggedIn: true });
    const list = await screen.findByRole('list', { name: 'Clients' });
    expect(
      within(list).getByRole('link', { name: /Web shop/ }),
    ).toHaveTextContent(`Secret last used${formatDateTime(usedAt)}`);
  });
});
