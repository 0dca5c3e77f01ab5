import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import {
  createMemoryRouter,
  type Location,
  Link,
  Outlet,
  RouterProvider,
  useParams,
} from 'react-router';
import { describe, expect, it } from 'vitest';
import { PanelProvider, usePanel } from './side-panel';

/** A history entry: an address, or one with a chosen key. */
type Entry = string | Partial<Location>;

/**
 * Renders the provider as the app does (above every route, inside the router), with `page`
 * at `path`, the entries of `history` before it.
 */
function renderInRouter(
  page: ReactNode,
  { path = '/', history = [] }: { path?: Entry; history?: Entry[] } = {},
) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <PanelProvider>
            <Outlet />
          </PanelProvider>
        ),
        children: [
          { path: '/', element: page },
          { path: '/clients', element: <ClientList /> },
          { path: '/clients/:clientId', element: page },
        ],
      },
    ],
    { initialEntries: [...history, path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

function ClientList() {
  return (
    <>
      <h1>Clients</h1>
      <Link to="/clients/2">Client 2</Link>
    </>
  );
}

/** A client page whose panel holds that client's id, and a link to the list. */
function ClientPage() {
  const { clientId } = useParams();
  const panel = usePanel();
  return (
    <>
      <h1>Client {clientId}</h1>
      <Link to="/clients">All clients</Link>
      <button
        type="button"
        onClick={() =>
          panel.showPanel(
            <>
              <p>Editing client {clientId}</p>
              <Link to="/clients">Back to the list</Link>
            </>,
            { title: 'Edit Client', allowClosePanel: clientId !== 'locked' },
          )
        }
      >
        Edit
      </button>
    </>
  );
}

/** Whether `element` or one of its ancestors has been made inert by a modal overlay. */
function isInert(element: HTMLElement): boolean {
  for (let node: HTMLElement | null = element; node; node = node.parentElement)
    if (node.inert) return true;
  return false;
}

function Opener({ allowClosePanel }: { allowClosePanel?: boolean }) {
  const panel = usePanel();
  return (
    <>
      <button
        type="button"
        onClick={() => panel.showPanel(null, { allowClosePanel })}
      >
        Open empty
      </button>
      <button
        type="button"
        onClick={() =>
          panel.showPanel(<p>Panel content</p>, { title: 'Details' })
        }
      >
        Open content
      </button>
    </>
  );
}

describe('side panel', () => {
  it("says 'Sorry, we do not have content here to show.' when empty", async () => {
    const user = userEvent.setup();
    renderInRouter(<Opener />);
    await user.click(screen.getByRole('button', { name: 'Open empty' }));
    expect(screen.getByRole('dialog')).toHaveTextContent(
      'Sorry, we do not have content here to show.',
    );
  });

  it("closes with 'Close Panel' or Escape and gives the focus back", async () => {
    const user = userEvent.setup();
    renderInRouter(<Opener />);
    const opener = screen.getByRole('button', { name: 'Open content' });
    await user.click(opener);
    expect(screen.getByRole('dialog', { name: 'Details' })).toHaveTextContent(
      'Panel content',
    );
    await user.click(screen.getByRole('button', { name: 'Close Panel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();

    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows no 'Close Panel' and ignores Escape when closing is not allowed", async () => {
    const user = userEvent.setup();
    renderInRouter(<Opener allowClosePanel={false} />);
    await user.click(screen.getByRole('button', { name: 'Open empty' }));
    expect(screen.queryByRole('button', { name: 'Close Panel' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('closes when Back leaves the page it was opened on, leaving the list usable', async () => {
    const user = userEvent.setup();
    const router = renderInRouter(<ClientPage />, {
      path: '/clients/1',
      history: ['/clients'],
    });
    const edit = screen.getByRole('button', { name: 'Edit' });
    await user.click(edit);
    expect(
      screen.getByRole('dialog', { name: 'Edit Client' }),
    ).toHaveTextContent('Editing client 1');
    expect(isInert(edit)).toBe(true);

    await act(() => router.navigate(-1));
    expect(
      screen.getByRole('heading', { name: 'Clients' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    const link = screen.getByRole('link', { name: 'Client 2' });
    expect(isInert(link)).toBe(false);
    await user.click(link);
    expect(
      screen.getByRole('heading', { name: 'Client 2' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not come back with Forward', async () => {
    const user = userEvent.setup();
    const router = renderInRouter(<ClientPage />, {
      path: '/clients/1',
      history: ['/clients'],
    });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await act(() => router.navigate(-1));
    await act(() => router.navigate(1));
    expect(
      screen.getByRole('heading', { name: 'Client 1' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(isInert(screen.getByRole('button', { name: 'Edit' }))).toBe(false);
  });

  it('closes when the same screen moves to another entry, even one it cannot close itself', async () => {
    const user = userEvent.setup();
    // The route's component stays mounted from one client to the next: only the location says
    // the page changed.
    const router = renderInRouter(<ClientPage />, {
      path: '/clients/locked',
      history: ['/clients/1'],
    });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.queryByRole('button', { name: 'Close Panel' })).toBeNull();
    await act(() => router.navigate(-1));
    expect(
      screen.getByRole('heading', { name: 'Client 1' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(isInert(screen.getByRole('button', { name: 'Edit' }))).toBe(false);
  });

  it("closes when a link of the panel's own content navigates", async () => {
    const user = userEvent.setup();
    renderInRouter(<ClientPage />, { path: '/clients/1' });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('link', { name: 'Back to the list' }));
    expect(
      screen.getByRole('heading', { name: 'Clients' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(isInert(screen.getByRole('link', { name: 'Client 2' }))).toBe(false);
  });

  it('tells apart entries the browser made, which all have the key default', async () => {
    const user = userEvent.setup();
    // A typed address or a hash edit leaves no state in the entry: the router keys it 'default'.
    const router = renderInRouter(<ClientPage />, {
      path: { pathname: '/clients/1', key: 'default' },
      history: [{ pathname: '/clients', key: 'default' }],
    });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await act(() => router.navigate(-1));
    expect(router.state.location.key).toBe('default');
    expect(
      screen.getByRole('heading', { name: 'Clients' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(isInert(screen.getByRole('link', { name: 'Client 2' }))).toBe(false);
  });
});
