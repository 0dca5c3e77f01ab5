import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

/**
 * The dialog's owner frames two screens and outlives them, as a shell's logout confirmation
 * does; `history` are the entries before the current one.
 */
function renderHarness(
  onConfirm: () => void,
  history: string[] = [],
  onCancel: () => void = () => {},
) {
  const router = createMemoryRouter(
    [
      {
        element: <Harness onConfirm={onConfirm} onCancel={onCancel} />,
        children: [
          { path: '/first', element: <h1>First</h1> },
          { path: '/second', element: <h1>Second</h1> },
        ],
      },
    ],
    { initialEntries: [...history, '/second'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

function Harness({
  onConfirm,
  onCancel,
}: {
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Outlet />
      <button type="button" onClick={() => setOpen(true)}>
        Delete
      </button>
      <ConfirmDialog
        open={open}
        destructive
        text="Are you sure?"
        onCancel={() => {
          setOpen(false);
          onCancel();
        }}
        onConfirm={() => {
          setOpen(false);
          onConfirm();
        }}
      />
    </>
  );
}

describe('confirm dialog', () => {
  it('is a modal alertdialog named by its text, with Cancel and OK, trapping Tab', async () => {
    const onConfirm = vi.fn();
    const user = userEvent.setup();
    renderHarness(onConfirm);
    const opener = screen.getByRole('button', { name: 'Delete' });
    await user.click(opener);

    const dialog = screen.getByRole('alertdialog', { name: 'Are you sure?' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    const ok = screen.getByRole('button', { name: 'OK' });
    // Destructive: the safe choice has the first focus.
    expect(cancel).toHaveFocus();
    await user.tab();
    expect(ok).toHaveFocus();
    await user.tab();
    expect(cancel).toHaveFocus();
    await user.tab({ shift: true });
    expect(ok).toHaveFocus();

    await user.click(ok);
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('is cancelled when Back leaves the page it was asked on', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    const user = userEvent.setup();
    const router = renderHarness(onConfirm, ['/first'], onCancel);
    const opener = screen.getByRole('button', { name: 'Delete' });
    await user.click(opener);
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    expect(inertAncestor(opener)).not.toBeNull();

    await act(() => router.navigate(-1));
    expect(screen.getByRole('heading', { name: 'First' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onCancel).toHaveBeenCalledOnce();
    expect(inertAncestor(opener)).toBeNull();

    // Forward to the entry it was asked on does not ask again.
    await act(() => router.navigate(1));
    expect(screen.getByRole('heading', { name: 'Second' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});

/** The nearest element, `element` included, made inert by a modal overlay. */
function inertAncestor(element: HTMLElement): HTMLElement | null {
  for (let node: HTMLElement | null = element; node; node = node.parentElement)
    if (node.inert) return node;
  return null;
}
