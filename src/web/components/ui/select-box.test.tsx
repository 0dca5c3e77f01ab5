import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SelectBox } from './select-box';

describe('select box', () => {
  it("shows 'No options available' when disabled", () => {
    render(
      <SelectBox
        label="Method"
        options={[{ key: 'a', text: 'A' }]}
        value="a"
        onChange={vi.fn()}
        disabled
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Method' });
    expect(select).toBeDisabled();
    expect(select).toHaveDisplayValue('No options available');
  });

  it('lists the options by their text and reports the chosen key', async () => {
    const onChange = vi.fn();
    const { default: userEvent } = await import('@testing-library/user-event');
    render(
      <SelectBox
        label="Method"
        options={[
          { key: 'a', text: 'Alpha' },
          { key: 'b', text: 'Beta' },
        ]}
        value="a"
        onChange={onChange}
      />,
    );
    await userEvent
      .setup()
      .selectOptions(screen.getByLabelText('Method'), 'Beta');
    expect(onChange).toHaveBeenCalledWith('b');
  });
});
