import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { heldRoute, mockApi } from '../../../testing/mock-api';
import { currentPath, renderApp } from '../../../testing/render-app';
import { shellRoutes } from '../../../testing/shell-stubs';
import { makeClient } from '../../../testing/test-data';
import type { OptOut } from '../../../../shared/schemas/optouts';

const client = makeClient();
const base = `/api/clients/${client.id}/optouts`;

const byKeyword: OptOut = {
  number: '447700900123',
  source: 'keyword',
  dateCreated: '2026-11-27T10:00:00.000Z',
};
const byApi: OptOut = {
  number: '33612345678',
  source: 'api',
  dateCreated: '2026-11-28T10:00:00.000Z',
};

const list = (optouts: OptOut[], total = optouts.length) => ({
  body: { total, count: 30, offset: 0, optouts },
});

afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('Opt-outs', () => {
  it('is a Messaging tab listing each number with its source; only one added by the client can be removed', async () => {
    mockApi({ ...shellRoutes(), [`GET ${base}`]: list([byKeyword, byApi]) });
    const { user } = renderApp('/messaging/sms', { loggedIn: true });
    await user.click(await screen.findByRole('link', { name: 'Opt-outs' }));
    await waitFor(() => expect(currentPath()).toBe('/messaging/optouts'));
    const table = await screen.findByRole('table', {
      name: 'Opt-outs 1 to 2 of 2',
    });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(
      '+447700900123Replied STOP' /* then the date */,
    );
    expect(rows[1]).toHaveTextContent('Ends when they send START');
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
    expect(rows[2]).toHaveTextContent('+33612345678Added by you');
    expect(
      within(rows[2]!).getByRole('button', {
        name: 'Remove the opt-out of +33612345678',
      }),
    ).toBeVisible();
  });

  it('shows grey rows while loading, then says when there is none', async () => {
    const held = heldRoute(list([]));
    mockApi({ ...shellRoutes(), [`GET ${base}`]: held.route });
    renderApp('/messaging/optouts', { loggedIn: true });
    expect(await screen.findByText('Loading opt-outs')).toBeInTheDocument();
    held.release();
    expect(
      await screen.findByText(/^No opt-outs\. Numbers that reply STOP/),
    ).toBeVisible();
  });

  it('adds a number cleaned as a send cleans it, refusing a national one first', async () => {
    let optouts: OptOut[] = [];
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${base}`]: () => list(optouts),
      [`PUT ${base}/447700900999`]: () => {
        optouts = [{ ...byApi, number: '447700900999' }];
        return { body: optouts[0] };
      },
    });
    const { user } = renderApp('/messaging/optouts', { loggedIn: true });
    const form = await screen.findByRole('region', { name: 'Add an opt-out' });
    const number = within(form).getByLabelText('Number');
    await user.type(number, '07700 900999');
    await user.click(within(form).getByRole('button', { name: 'Add Opt-out' }));
    expect(number).toHaveAccessibleDescription(
      'Number is a national number (it begins with 0): give it with its country code',
    );
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
    await user.clear(number);
    await user.type(number, '+44 7700 900999{Enter}');
    expect(
      await screen.findByText('The number has been opted out'),
    ).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(number).toHaveValue('');
    expect(
      await screen.findByRole('table', { name: 'Opt-outs 1 to 1 of 1' }),
    ).toHaveTextContent('+447700900999Added by you');
  });

  it('removes an opt-out after the confirmation, and Cancel removes nothing', async () => {
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${base}`]: list([byApi]),
      [`DELETE ${base}/33612345678`]: { status: 204 },
    });
    const { user } = renderApp('/messaging/optouts', { loggedIn: true });
    const remove = await screen.findByRole('button', {
      name: 'Remove the opt-out of +33612345678',
    });
    const question =
      'Are you sure you want to remove the opt-out of +33612345678? Your messages to it will be sent again.';
    await user.click(remove);
    await user.click(
      within(screen.getByRole('alertdialog', { name: question })).getByRole(
        'button',
        { name: 'Cancel' },
      ),
    );
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(remove);
    await user.click(
      within(screen.getByRole('alertdialog', { name: question })).getByRole(
        'button',
        { name: 'OK' },
      ),
    );
    expect(
      await screen.findByText('The opt-out has been removed'),
    ).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });

  it("shows the server's 409 when the opt-out turned out to be the recipient's own", async () => {
    mockApi({
      ...shellRoutes(),
      [`GET ${base}`]: list([byApi]),
      [`DELETE ${base}/33612345678`]: {
        status: 409,
        body: {
          statusCode: 409,
          message:
            'This opt-out was made by the recipient (STOP): it ends only by their START',
        },
      },
    });
    const { user } = renderApp('/messaging/optouts', { loggedIn: true });
    await user.click(
      await screen.findByRole('button', {
        name: 'Remove the opt-out of +33612345678',
      }),
    );
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', {
        name: 'OK',
      }),
    );
    expect(
      await screen.findByText(
        'The opt-out could not be removed: This opt-out was made by the recipient (STOP): it ends only by their START',
      ),
    ).toBeVisible();
  });

  it('downloads the list as optouts.csv with the credentials', async () => {
    // jsdom has no object URLs: keep the Blob the page saves, and stop the link's navigation.
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:optouts';
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const csv =
      'number,source,dateCreated\r\n447700900123,keyword,2026-11-27T10:00:00.000Z\r\n';
    const { requests } = mockApi({
      ...shellRoutes(),
      [`GET ${base}`]: list([byKeyword]),
      [`GET ${base}.csv`]: { body: csv },
    });
    const { user } = renderApp('/messaging/optouts', { loggedIn: true });
    await user.click(
      await screen.findByRole('button', { name: 'Download CSV' }),
    );
    await waitFor(() => expect(created).toHaveLength(1));
    expect(await created[0]!.text()).toBe(csv);
    const download = requests.find((r) => r.path === `${base}.csv`);
    expect(download?.headers.get('authorization')).toMatch(/^Basic /);
    const link = vi.mocked(HTMLAnchorElement.prototype.click).mock
      .contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('optouts.csv');
  });
});
