import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import type { Route } from '../../../testing/mock-api';
import { makeBalance, makeClient, makeUser } from '../../../testing/test-data';

const client = makeClient({ name: 'Web shop' });
const balance = makeBalance({ id: client.id, amount: 3, minThreshold: 0 });
const putPath = `/api/admin/clients/${client.id}/balances/${balance.id}`;

function pageRoutes(put: Route): Record<string, Route> {
  return {
    'GET /api/users/me': { body: makeUser({ roles: ['ROLE_CLIENT_ADMIN'] }) },
    [`GET /api/admin/clients/${client.id}`]: { body: client },
    [`GET /api/admin/clients/${client.id}/balances/default`]: {
      body: balance,
    },
    'GET /api/admin/routes/split': {
      body: { routes: [], total: 0, count: 300, offset: 0 },
    },
    [`GET /api/admin/clients/${client.id}/messages`]: {
      body: { messages: [], total: 0, count: 30, offset: 0 },
    },
    [`PUT ${putPath}`]: put,
  };
}

async function thresholdCard() {
  return within(
    await screen.findByRole('region', { name: 'Low-balance threshold' }),
  );
}

describe('admin threshold card', () => {
  it('refuses what is not an amount of 0 or more, and sends nothing', async () => {
    const { requests } = mockApi(
      pageRoutes({ body: { ...balance, minThreshold: 5 } }),
    );
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    const card = await thresholdCard();
    const field = card.getByLabelText('Minimum balance');
    expect(field).toHaveValue('0.00');
    for (const bad of ['', 'abc', '-1', '1.23456', '1e3']) {
      await user.clear(field);
      if (bad) await user.type(field, bad);
      await user.click(card.getByRole('button', { name: 'Save Threshold' }));
      expect(
        await card.findByText(
          'Threshold must be a decimal of at least 0 with at most 4 decimal places',
        ),
      ).toBeInTheDocument();
      expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('saves the threshold as a number and shows the new value', async () => {
    const { requests } = mockApi(
      pageRoutes({ body: { ...balance, minThreshold: 5 } }),
    );
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    const card = await thresholdCard();
    expect(card.getByText('No warning is set: 0 turns it off.')).toBeVisible();
    const field = card.getByLabelText('Minimum balance');
    await user.clear(field);
    await user.type(field, '5.0');
    await user.click(card.getByRole('button', { name: 'Save Threshold' }));
    expect(
      await screen.findByText('The low-balance threshold has been saved'),
    ).toBeInTheDocument();
    const put = requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe(putPath);
    expect(put?.body).toEqual({ minThreshold: 5 });
    expect(
      (await thresholdCard()).getByText(
        'The customer is warned below EUR 5.00.',
      ),
    ).toBeInTheDocument();
    expect(
      (await thresholdCard()).getByLabelText('Minimum balance'),
    ).toHaveValue('5.00');
  });

  it("shows the server's refusal under the field, naming it as the form labels it", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mockApi(
      pageRoutes({
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          message: 'minThreshold must not be negative',
        },
      }),
    );
    const { user } = renderApp(`/admin/clients/${client.id}`, {
      loggedIn: true,
    });
    const card = await thresholdCard();
    await user.clear(card.getByLabelText('Minimum balance'));
    await user.type(card.getByLabelText('Minimum balance'), '2');
    await user.click(card.getByRole('button', { name: 'Save Threshold' }));
    expect(
      await card.findByText('Minimum balance must not be negative'),
    ).toBeInTheDocument();
    expect(card.getByLabelText('Minimum balance')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(card.queryByText(/minThreshold/)).toBeNull();
  });
});
