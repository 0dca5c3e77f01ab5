import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../testing/mock-api';
import { currentPath, renderFirstVisit } from '../testing/render-app';
import { shellRoutes } from '../testing/shell-stubs';
import { testBranding } from '../testing/test-data';

describe('a first visit, started as main.tsx starts it', () => {
  it('shows the login page without a query client, then logs in into the shell', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      'GET /api/config': { body: testBranding },
    });
    const { user } = renderFirstVisit('/login');
    // The product name and the provider come from GET /api/config, read by the page itself.
    expect(
      await screen.findByRole('heading', {
        name: 'Login to Skyline Console',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText('Powered by')).toHaveTextContent(
      'Powered by Skyline Telecom',
    );
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/config',
    ]);

    await user.type(screen.getByLabelText('Email'), 'ada@example.test');
    await user.type(screen.getByLabelText('Password'), 'password-123');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    // The shell's screens read server state through the query client made on the way in.
    expect(
      await screen.findByRole('heading', { name: 'Balance' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByRole('button', { name: 'Hello Ada' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/billing/balance');
    // Read once for the whole visit.
    expect(requests.filter((r) => r.path === '/api/config')).toHaveLength(1);
  });
});
