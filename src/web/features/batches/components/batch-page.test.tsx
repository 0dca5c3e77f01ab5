import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBatch, testBatchId } from '../../../testing/batch-data';
import { mockApi } from '../../../testing/mock-api';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeClient } from '../../../testing/test-data';

const client = makeClient();
const batchPath = `/api/clients/${client.id}/batches/${testBatchId}`;

const progress = () =>
  screen.findByRole('progressbar', { name: 'Messages in a final state' });

describe('Batch page', { timeout: 20_000 }, () => {
  it('updates its progress by state until every message is final, then links to its messages in the log', async () => {
    let calls = 0;
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${batchPath}`]: () => {
        calls += 1;
        return {
          body: makeBatch({
            states:
              calls === 1 ? { SUBMITTED: 2, DELIVERED: 1 } : { DELIVERED: 3 },
          }),
        };
      },
      [`GET /api/clients/${client.id}/messages`]: {
        body: { total: 0, count: 0, offset: 0, messages: [] },
      },
    });
    const { user } = renderApp(`/messaging/bulk/${testBatchId}`, {
      loggedIn: true,
    });
    expect(await progress()).toHaveAttribute(
      'aria-valuetext',
      '1 of 3 final (33 %)',
    );
    expect(
      screen.getByRole('list', { name: 'Messages by state' }),
    ).toHaveTextContent('Submitted 2Delivered 1');
    await waitFor(
      async () =>
        expect(await progress()).toHaveAttribute(
          'aria-valuetext',
          '3 of 3 final (100 %)',
        ),
      { timeout: 10_000 },
    );
    expect(
      screen.getByRole('list', { name: 'Messages by state' }),
    ).toHaveTextContent('Delivered 3');
    expect(
      screen.queryByText(/Updating every few seconds/),
    ).not.toBeInTheDocument();

    await user.click(
      screen.getByRole('link', {
        name: 'Open its messages in the Message Log',
      }),
    );
    expect(currentPath()).toBe(`/messaging/log?batchId=${testBatchId}`);
    expect(
      await screen.findByText(/Showing the messages of one batch/),
    ).toBeInTheDocument();
    await waitFor(() => {
      const list = requests.filter((r) => r.path.endsWith('/messages'));
      expect(new URLSearchParams(list.at(-1)?.search).get('batchId')).toBe(
        testBatchId,
      );
    });
  });

  it('cancels its scheduled messages after a confirmation', async () => {
    let canceled = false;
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${batchPath}`]: () => ({
        body: makeBatch({
          total: 2,
          sendAt: '2026-12-01T09:00:00.000Z',
          states: canceled ? { CANCELED: 2 } : { SCHEDULED: 2 },
        }),
      }),
      [`POST ${batchPath}/cancel`]: () => {
        canceled = true;
        return {
          body: makeBatch({
            total: 2,
            sendAt: '2026-12-01T09:00:00.000Z',
            states: { CANCELED: 2 },
          }),
        };
      },
    });
    const { user } = renderApp(`/messaging/bulk/${testBatchId}`, {
      loggedIn: true,
    });
    expect(await progress()).toHaveAttribute(
      'aria-valuetext',
      '0 of 2 final (0 %)',
    );
    await user.click(
      screen.getByRole('button', { name: 'Cancel scheduled messages' }),
    );
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Cancel the 2 scheduled messages of this batch? They are refunded.',
    });
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(
        screen.getByRole('list', { name: 'Messages by state' }),
      ).toHaveTextContent('Canceled 2'),
    );
    expect(
      screen.queryByRole('button', { name: 'Cancel scheduled messages' }),
    ).not.toBeInTheDocument();
    expect(
      requests.filter((r) => r.method === 'POST').map((r) => r.path),
    ).toEqual([`${batchPath}/cancel`]);
  });

  it('cancels a paced batch’s messages not yet sent after a confirmation', async () => {
    let canceled = false;
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${batchPath}`]: () => ({
        body: makeBatch({
          total: 5,
          states: canceled
            ? { DELIVERED: 2, CANCELED: 3 }
            : { DELIVERED: 2, ACCEPTED: 3 },
        }),
      }),
      [`POST ${batchPath}/cancel`]: () => {
        canceled = true;
        return {
          body: makeBatch({ total: 5, states: { DELIVERED: 2, CANCELED: 3 } }),
        };
      },
    });
    const { user } = renderApp(`/messaging/bulk/${testBatchId}`, {
      loggedIn: true,
    });
    await user.click(
      await screen.findByRole('button', {
        name: 'Cancel messages not yet sent',
      }),
    );
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Cancel the 3 messages of this batch not yet sent? Each one canceled is refunded; one being handed to a provider right now still goes out.',
    });
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() =>
      expect(
        screen.getByRole('list', { name: 'Messages by state' }),
      ).toHaveTextContent('Canceled 3'),
    );
    expect(
      requests.filter((r) => r.method === 'POST').map((r) => r.path),
    ).toEqual([`${batchPath}/cancel`]);
  });
});
