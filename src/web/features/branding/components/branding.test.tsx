import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/mock-api';
import { renderFirstVisit } from '../../../testing/render-app';
import { testBranding } from '../../../testing/test-data';

describe('the branding', () => {
  it('after a failed read, is read again by the next screen showing it', async () => {
    let reads = 0;
    const { requests } = mockApi({
      'GET /api/config': () =>
        ++reads === 1 ? { status: 500 } : { body: testBranding },
    });
    const { user } = renderFirstVisit('/login');
    const heading = await screen.findByRole('heading', { name: 'Login to' });
    // The read failed: the placeholder of the name goes, no name takes its place.
    await waitFor(() => expect(heading.querySelector('.skeleton')).toBeNull());
    expect(heading).toHaveTextContent(/^Login to$/);

    await user.click(screen.getByRole('button', { name: 'Register new user' }));
    expect(
      await screen.findByRole('heading', {
        name: 'Register on Skyline Console',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText('Powered by')).toHaveTextContent(
      'Powered by Skyline Telecom',
    );
    expect(requests.filter((r) => r.path === '/api/config')).toHaveLength(2);
  });
});
