import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PanelProvider, usePanel } from './side-panel';

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
    render(
      <PanelProvider>
        <Opener />
      </PanelProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Open empty' }));
    expect(screen.getByRole('dialog')).toHaveTextContent(
      'Sorry, we do not have content here to show.',
    );
  });

  it("closes with 'Close Panel' or Escape and gives the focus back", async () => {
    const user = userEvent.setup();
    render(
      <PanelProvider>
        <Opener />
      </PanelProvider>,
    );
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
    render(
      <PanelProvider>
        <Opener allowClosePanel={false} />
      </PanelProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Open empty' }));
    expect(screen.queryByRole('button', { name: 'Close Panel' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
