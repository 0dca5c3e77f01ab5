import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { HoverDropdown } from './hover-dropdown';

function setup() {
  const chosen = vi.fn();
  render(
    <HoverDropdown
      label="Hello Ada"
      items={['One', 'Two', 'Three'].map((text) => ({
        key: text,
        text,
        onSelect: () => chosen(text),
      }))}
    />,
  );
  return { chosen, user: userEvent.setup() };
}

describe('hover dropdown', () => {
  it('opens on hover and closes when the pointer leaves', async () => {
    const { user } = setup();
    const button = screen.getByRole('button', { name: 'Hello Ada' });
    await user.hover(button);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await user.unhover(button);
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });

  it('closes a menu opened by hovering on Escape, wherever focus is, without moving focus', async () => {
    const { user } = setup();
    const button = screen.getByRole('button', { name: 'Hello Ada' });
    await user.hover(button);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(button).not.toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).not.toHaveFocus();
  });

  it('is keyboard operable: arrows move, Enter chooses, Escape closes', async () => {
    const { user, chosen } = setup();
    const button = screen.getByRole('button', { name: 'Hello Ada' });
    button.focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'One' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'One' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Three' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(chosen).toHaveBeenCalledWith('Two');
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
