import type { APIRequestContext } from '@playwright/test';
import {
  ADMIN,
  basicAuth,
  createClientViaApi,
  expect,
  grantCreditViaApi,
  loginAs,
  test,
  type TestUser,
} from './fixtures.ts';

/**
 * CONTRACT "Destinations", "Stopping traffic" (issue 30): staff stop a client's traffic from the
 * admin client page, and an owner cancels a batch from its page; each after a confirmation
 * naming how many messages, each cancelled message shown CANCELED with its reason.
 */
const asUser = (user: TestUser) => ({
  authorization: basicAuth(user.email, user.password),
});
const asAdmin = { authorization: basicAuth(ADMIN.email, ADMIN.password) };

/** A batch sent through the API: `recipients` numbers, optionally an hour ahead. */
async function sendBatch(
  request: APIRequestContext,
  user: TestUser,
  clientId: string,
  recipients: number,
  scheduled: boolean,
): Promise<string> {
  const answer = await request.post(`/api/clients/${clientId}/batches`, {
    headers: asUser(user),
    data: {
      recipients: Array.from(
        { length: recipients },
        (_, i) => `4477009${String(100 + i).padStart(5, '0')}`,
      ),
      body: 'Spring sale',
      ...(scheduled
        ? { sendAt: new Date(Date.now() + 3_600_000).toISOString() }
        : {}),
    },
  });
  expect(answer.status()).toBe(201);
  return (await answer.json()).id as string;
}

async function balanceOf(
  request: APIRequestContext,
  user: TestUser,
  clientId: string,
): Promise<number> {
  const answer = await request.get(
    `/api/clients/${clientId}/balances/default`,
    { headers: asUser(user) },
  );
  return (await answer.json()).amount as number;
}

test.describe('Stopping traffic', () => {
  test('staff stop a client’s waiting messages from its admin page: counted, confirmed, CANCELED and refunded', async ({
    page,
    user,
    request,
  }) => {
    const client = await createClientViaApi(user, 'Flash sales');
    await grantCreditViaApi(client.id, '1');
    await sendBatch(request, user, client.id, 3, true);
    expect(await balanceOf(request, user, client.id)).toBe(0.85);

    await loginAs(page, ADMIN);
    await page.goto(`/#/admin/clients/${client.id}`);
    const traffic = page.getByRole('region', { name: 'Traffic' });
    await expect(traffic).toContainText(
      '3 messages waiting (scheduled or queued).',
    );
    await traffic.getByRole('button', { name: 'Stop traffic' }).click();
    const dialog = page.getByRole('alertdialog', {
      name: 'Cancel the 3 messages of this client not yet sent? Each one canceled is refunded; one being handed to a provider right now still goes out.',
    });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByRole('status')).toHaveText(
      '3 messages canceled and refunded',
    );
    await expect(dialog).toBeHidden();
    await expect(traffic).toContainText(
      '0 messages waiting (scheduled or queued).',
    );
    await expect(
      traffic.getByRole('button', { name: 'Stop traffic' }),
    ).toBeDisabled();

    const table = page.getByRole('table', {
      name: 'Messages of the client, 1 to 3 of 3',
    });
    const rows = table.getByRole('row');
    await expect(rows.filter({ hasText: 'Canceled' })).toHaveCount(3);
    await rows.filter({ hasText: 'Canceled' }).first().click();
    const fields = page
      .getByRole('dialog', { name: 'Message' })
      .getByRole('region', { name: 'Message' });
    await expect(fields.getByText('Refunded')).toBeVisible();
    await expect(fields.getByText('canceled by staff')).toBeVisible();
    expect(await balanceOf(request, user, client.id)).toBe(1);
  });

  test('the owner cancels a scheduled batch from its page: confirmed, the states update', async ({
    page,
    user,
    request,
  }) => {
    const client = await createClientViaApi(user, 'Newsletter');
    await grantCreditViaApi(client.id, '1');
    const batchId = await sendBatch(request, user, client.id, 3, true);

    await loginAs(page, user);
    await page.goto(`/#/messaging/bulk/${batchId}`);
    const states = page.getByRole('list', { name: 'Messages by state' });
    await expect(states).toHaveText('Scheduled 3');
    await page
      .getByRole('button', { name: 'Cancel scheduled messages' })
      .click();
    await page
      .getByRole('alertdialog', {
        name: 'Cancel the 3 scheduled messages of this batch? They are refunded.',
      })
      .getByRole('button', { name: 'OK' })
      .click();
    await expect(page.getByRole('status')).toHaveText(
      'Scheduled messages canceled and refunded',
    );
    await expect(states).toHaveText('Canceled 3');
    await expect(
      page.getByRole('button', { name: 'Cancel scheduled messages' }),
    ).toBeHidden();
    expect(await balanceOf(request, user, client.id)).toBe(1);
  });

  test('the owner cancels a paced batch while it is being delivered: the rest is CANCELED, refunded, with its reason', async ({
    page,
    user,
    request,
  }) => {
    test.setTimeout(60_000);
    const client = await createClientViaApi(user, 'Paced');
    await grantCreditViaApi(client.id, '2');
    const limits = await request.put(`/api/admin/clients/${client.id}/limits`, {
      headers: asAdmin,
      data: { maxMessagesPerSecond: 1 },
    });
    expect(limits.status()).toBe(200);
    const batchId = await sendBatch(request, user, client.id, 20, false);

    await loginAs(page, user);
    await page.goto(`/#/messaging/bulk/${batchId}`);
    await page
      .getByRole('button', { name: 'Cancel messages not yet sent' })
      .click();
    await page
      .getByRole('alertdialog', {
        name: /^Cancel the \d+ messages of this batch not yet sent\? Each one canceled is refunded; one being handed to a provider right now still goes out\.$/,
      })
      .getByRole('button', { name: 'OK' })
      .click();
    await expect(page.getByRole('status')).toHaveText(
      'Messages not yet sent canceled and refunded',
    );
    await expect(
      page.getByRole('progressbar', { name: 'Messages in a final state' }),
    ).toHaveAttribute('aria-valuetext', '20 of 20 final (100 %)', {
      timeout: 30_000,
    });
    const states = page.getByRole('list', { name: 'Messages by state' });
    const text = (await states.textContent()) ?? '';
    const canceled = Number(/Canceled (\d+)/.exec(text)?.[1] ?? 0);
    const delivered = Number(/Delivered (\d+)/.exec(text)?.[1] ?? 0);
    // One a second: most were still waiting when the owner confirmed.
    expect(canceled).toBeGreaterThan(10);
    expect(canceled + delivered).toBe(20);
    expect(await balanceOf(request, user, client.id)).toBeCloseTo(
      2 - 0.05 * delivered,
      10,
    );

    await page
      .getByRole('link', { name: 'Open its messages in the Message Log' })
      .click();
    await page
      .getByRole('table', { name: /^Messages 1 to 20 of 20$/ })
      .getByRole('row')
      .filter({ hasText: 'Canceled' })
      .first()
      .click();
    await expect(
      page
        .getByRole('dialog', { name: 'Message' })
        .getByRole('region', { name: 'Message' })
        .getByText('canceled by the owner'),
    ).toBeVisible();
  });
});
