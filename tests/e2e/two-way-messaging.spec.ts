import { randomInt } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  ADMIN,
  basicAuth,
  createClientViaApi,
  expect,
  expectNoSeriousA11yViolations,
  grantCreditViaApi,
  loginAs,
  test,
  type TestClient,
  type TestUser,
} from './fixtures.ts';

/**
 * Issue 32 in the console, against the real server: staff assign a number (Admin → Numbers), its
 * client sees it, the owner's Inbox shows the conversation with a recipient, a reply goes out from
 * the client's number, and once the recipient is opted out the reply box refuses (and a refusal
 * by the server, when the opt-out lands behind the page's back, is shown without signing out).
 */

const adminHeaders = { authorization: basicAuth(ADMIN.email, ADMIN.password) };

/** A number nobody else's test holds: 12 digits, a UK mobile shape. */
const uniqueNumber = () => `44790${String(randomInt(1e6, 1e7))}`;

const ownerHeaders = (user: TestUser) => ({
  authorization: basicAuth(user.email, user.password),
});

async function assignViaApi(
  request: APIRequestContext,
  number: string,
  clientId: string,
) {
  const answer = await request.put(`/api/admin/numbers/${number}`, {
    headers: adminHeaders,
    data: { clientId },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

async function sendViaApi(
  request: APIRequestContext,
  user: TestUser,
  client: TestClient,
  recipient: string,
  body: string,
) {
  const answer = await request.post(`/api/clients/${client.id}/messages/sms`, {
    headers: ownerHeaders(user),
    data: { sender: 'Shop', recipient, body },
  });
  expect(answer.status(), await answer.text()).toBe(201);
}

/** Nothing on the page reaches past the window sideways. */
async function expectNoSidewaysScroll(page: Page, screen: string) {
  const widths = await page.evaluate<[number, number]>(`(() => {
    const root = document.scrollingElement || document.documentElement;
    return [root.scrollWidth, root.clientWidth];
  })()`);
  expect(widths[0], `${screen} scrolls sideways`).toBeLessThanOrEqual(
    widths[1],
  );
}

test('staff assign a number in Admin → Numbers, edit and release it; the owner sees it on the client page', async ({
  page,
  user,
  browser,
}) => {
  // Two sign-ins, three screens and axe four times: more than the default 30 s on 2 busy cores.
  test.setTimeout(90_000);
  const client = await createClientViaApi(user, 'Web shop');
  const number = uniqueNumber();
  await loginAs(page, ADMIN);
  await page.goto('/#/admin');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Numbers' }).click();
  await expect(
    page.getByRole('heading', { name: 'Numbers', level: 1 }),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Assign Number' }).click();
  const form = page.getByRole('region', { name: 'Assign a number' });
  await expect(form.getByLabel('Number')).toBeFocused();
  await form.getByLabel('Number').fill(`+${number}`);
  await form.getByLabel('Client ID').fill(client.id);
  await form.getByLabel('Help text').fill('Web shop: call 0800 123');
  await page.waitForLoadState('networkidle');
  await expectNoSeriousA11yViolations(page);
  await form.getByRole('button', { name: 'Assign Number' }).click();
  await expect(page.getByText('The number has been assigned')).toBeVisible();

  // Found by the start of the number as people write it, in the URL.
  const search = page.getByRole('search', { name: 'Find numbers' });
  await search
    .getByLabel('Search numbers')
    .fill(`+${number.slice(0, 2)} ${number.slice(2)}`);
  await search.getByLabel('Search numbers').press('Enter');
  await expect(page).toHaveURL(new RegExp(`q=${number}`));
  const row = page.getByRole('row', { name: new RegExp(number) });
  await expect(row).toContainText(client.id);
  await expect(row).toContainText('Web shop: call 0800 123');
  await expectNoSeriousA11yViolations(page);

  await row.getByRole('button', { name: `Edit +${number}` }).click();
  const edit = page.getByRole('region', { name: `Edit +${number}` });
  await edit.getByLabel('Help text').fill('Web shop: reply STOP to end');
  await edit.getByRole('button', { name: 'Save Number' }).click();
  await expect(page.getByText('The number has been saved')).toBeVisible();
  await expect(row).toContainText('Web shop: reply STOP to end');

  // The owner's client page lists it (in a browser context of their own: the credentials are
  // kept in the origin's storage).
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await loginAs(owner, user);
  await owner.goto(`/#/clients/${client.id}`);
  const card = owner.getByRole('region', { name: 'Numbers' });
  await expect(card).toContainText(`+${number}`);
  await expect(card).toContainText('Help text: Web shop: reply STOP to end');
  await ownerContext.close();

  // The admin client page too, with the way back to Numbers.
  await page.goto(`/#/admin/clients/${client.id}`);
  const adminCard = page.getByRole('region', { name: 'Numbers' });
  await expect(adminCard).toContainText(`+${number}`);
  await adminCard.getByRole('link', { name: 'Manage numbers' }).click();
  await expect(page).toHaveURL(new RegExp(`clientId=${client.id}`));
  const held = page.getByRole('row', { name: new RegExp(number) });

  await held.getByRole('button', { name: `Release +${number}` }).click();
  const dialog = page.getByRole('alertdialog', {
    name: `Are you sure you want to release +${number}? Messages to it will no longer reach its client.`,
  });
  await expect(dialog).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByText('The number has been released')).toBeVisible();
  await expect(page.getByText('No numbers match these filters.')).toBeVisible();
});

test('the owner reads a conversation, replies from the number the client holds, and a number that opted out is refused; staff read it', async ({
  page,
  user,
  request,
  browser,
}) => {
  test.setTimeout(90_000);
  const client = await createClientViaApi(user, 'Web shop');
  await grantCreditViaApi(client.id, '5');
  const held = uniqueNumber();
  const recipient = uniqueNumber();
  await assignViaApi(request, held, client.id);
  await loginAs(page, user);

  // Nothing yet: the Inbox says where replies come from.
  await page.goto('/#/messaging/inbox');
  const noReplies = page.getByText(
    'No replies yet. Messages sent to your numbers appear here, with your answers.',
  );
  await expect(noReplies).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // A number only sent to is not a reply: it shows when asked for.
  await sendViaApi(request, user, client, recipient, 'Your order has shipped');
  await page.reload();
  await expect(noReplies).toBeVisible();
  await page
    .getByRole('checkbox', { name: 'Also show numbers you only sent to' })
    .check();
  await expect(page).toHaveURL(/#\/messaging\/inbox\?all=true$/);
  const row = page.getByRole('row', { name: new RegExp(recipient) });
  await expect(row).toContainText('You: Your order has shipped');
  await expectNoSeriousA11yViolations(page);
  await row.getByRole('link', { name: `+${recipient}` }).click();
  await expect(
    page.getByRole('heading', { name: `+${recipient}`, level: 1 }),
  ).toBeVisible();
  const log = page.getByRole('log', { name: `Messages with +${recipient}` });
  await expect(log.getByRole('listitem')).toHaveCount(1);
  await expect(log.getByRole('listitem')).toContainText(
    'Your order has shipped',
  );

  // The reply goes out from the client's own number; the keyboard sends it.
  const form = page.getByRole('form', { name: `Reply to +${recipient}` });
  await expect(form.getByText(`From +${held}`)).toBeVisible();
  await form.getByLabel('Reply').fill('It arrives tomorrow');
  await form.getByLabel('Reply').press('Control+Enter');
  await expect(page.getByText('SMS Sent')).toBeVisible();
  await expect(log.getByRole('listitem')).toHaveCount(2);
  await expect(log.getByRole('listitem').last()).toContainText(
    'It arrives tomorrow',
  );
  const sent = await request.get(
    `/api/clients/${client.id}/messages?recipient=${recipient}`,
    { headers: ownerHeaders(user) },
  );
  const messages = (await sent.json()).messages as {
    sender: string;
    body: string;
  }[];
  expect(messages.find((m) => m.body === 'It arrives tomorrow')?.sender).toBe(
    held,
  );
  await expectNoSeriousA11yViolations(page);

  // Opted out from the Opt-outs tab: the reply box is off and says why.
  await page
    .getByRole('navigation', { name: 'Messaging' })
    .getByRole('link', { name: 'Opt-outs' })
    .click();
  const add = page.getByRole('region', { name: 'Add an opt-out' });
  await add.getByLabel('Number').fill(`+${recipient}`);
  await add.getByRole('button', { name: 'Add Opt-out' }).click();
  await expect(page.getByText('The number has been opted out')).toBeVisible();
  const optout = page.getByRole('row', { name: new RegExp(recipient) });
  await expect(optout).toContainText('Added by you');
  await expectNoSeriousA11yViolations(page);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('optouts.csv');

  await page.goto(`/#/messaging/inbox/${recipient}`);
  await expect(form.getByRole('status')).toContainText(
    `+${recipient} has opted out of your messages`,
  );
  await expect(form.getByLabel('Reply')).toBeDisabled();
  await expect(form.getByRole('button', { name: 'Send Reply' })).toBeDisabled();
  await page.goto('/#/messaging/inbox?all=true');
  await expect(
    page.getByRole('row', { name: new RegExp(recipient) }),
  ).toContainText('Opted out');

  // Removed after a confirmation: the box takes replies again.
  await page.goto('/#/messaging/optouts');
  await optout
    .getByRole('button', { name: `Remove the opt-out of +${recipient}` })
    .click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: 'OK' })
    .click();
  await expect(page.getByText('The opt-out has been removed')).toBeVisible();
  await page.goto(`/#/messaging/inbox/${recipient}`);
  await expect(form.getByLabel('Reply')).toBeEnabled();

  // Opted out behind the page's back: the server's refusal is shown, the user stays signed in,
  // and the box turns off.
  const put = await request.put(
    `/api/clients/${client.id}/optouts/${recipient}`,
    { headers: ownerHeaders(user) },
  );
  expect(put.status(), await put.text()).toBeLessThan(300);
  await form.getByLabel('Reply').fill('Are you still there?');
  await form.getByRole('button', { name: 'Send Reply' }).click();
  await expect(form.getByRole('alert')).toContainText('opted out');
  await expect(page).toHaveURL(new RegExp(`#/messaging/inbox/${recipient}$`));
  await expect(form.getByLabel('Reply')).toBeDisabled();
  const after = await request.get(
    `/api/clients/${client.id}/messages?recipient=${recipient}`,
    { headers: ownerHeaders(user) },
  );
  expect((await after.json()).total).toBe(2);

  // Staff read the same conversation on the admin client page, in the side panel.
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await loginAs(staff, ADMIN);
  await staff.goto(`/#/admin/clients/${client.id}`);
  const section = staff.getByRole('region', { name: 'Conversations' });
  await section.getByRole('button', { name: `+${recipient}` }).click();
  const panel = staff.getByRole('dialog', {
    name: `Conversation with +${recipient}`,
  });
  await expect(
    panel.getByRole('log').getByRole('listitem').last(),
  ).toContainText('It arrives tomorrow');
  await expectNoSeriousA11yViolations(staff);
  await staffContext.close();
});

test('the Inbox, a thread and Opt-outs fit a phone and work from the keyboard', async ({
  page,
  user,
  request,
}) => {
  const client = await createClientViaApi(user, 'Web shop');
  await grantCreditViaApi(client.id, '5');
  const recipient = uniqueNumber();
  await sendViaApi(
    request,
    user,
    client,
    recipient,
    'A long message that must wrap inside its bubble on a narrow screen rather than push the page sideways',
  );
  await page.setViewportSize({ width: 375, height: 812 });
  await loginAs(page, user);

  await page.goto('/#/messaging/inbox?all=true');
  await expect(
    page.getByRole('row', { name: new RegExp(recipient) }),
  ).toBeVisible();
  await expectNoSidewaysScroll(page, 'Inbox');
  await expectNoSeriousA11yViolations(page);

  // The keyboard reaches the conversation's link and opens it.
  const link = page.getByRole('link', { name: `+${recipient}` });
  await link.focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: `Reply to +${recipient}` });
  await expect(form).toBeVisible();
  await expectNoSidewaysScroll(page, 'the thread');
  await expectNoSeriousA11yViolations(page);
  await form.getByLabel('Reply').focus();
  await page.keyboard.type('Thanks');
  await page.keyboard.press('Tab');
  await expect(form.getByRole('button', { name: 'Send Reply' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText('SMS Sent')).toBeVisible();

  await page.goto('/#/messaging/optouts');
  const add = page.getByRole('region', { name: 'Add an opt-out' });
  await add.getByLabel('Number').fill(`+${recipient}`);
  await add.getByLabel('Number').press('Enter');
  await expect(
    page.getByRole('row', { name: new RegExp(recipient) }),
  ).toBeVisible();
  await expectNoSidewaysScroll(page, 'Opt-outs');
  await expectNoSeriousA11yViolations(page);
});

test('a bulk send to a number that opted out is refused with the reason, and the user stays signed in', async ({
  page,
  user,
  request,
}) => {
  const client = await createClientViaApi(user, 'Web shop');
  await grantCreditViaApi(client.id, '5');
  const stopped = uniqueNumber();
  const put = await request.put(
    `/api/clients/${client.id}/optouts/${stopped}`,
    { headers: ownerHeaders(user) },
  );
  expect(put.status(), await put.text()).toBe(200);
  await loginAs(page, user);
  await page.goto('/#/messaging/bulk');
  // The quotes by destination cannot see one opted-out number among many: the server says it.
  await page.getByLabel('Phone numbers').fill(`${stopped}\n${uniqueNumber()}`);
  await page.getByLabel('Body').fill('Our sale starts today');
  await page.getByRole('button', { name: 'Send to 2 recipients' }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: 'OK' })
    .click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'nothing was sent' }),
  ).toHaveText(
    `Sending to recipient 0 (+${stopped}: opted out) is not allowed; nothing was sent`,
  );
  await expect(page).toHaveURL(/#\/messaging\/bulk$/);
  const sent = await request.get(`/api/clients/${client.id}/messages`, {
    headers: ownerHeaders(user),
  });
  expect((await sent.json()).total).toBe(0);
});
