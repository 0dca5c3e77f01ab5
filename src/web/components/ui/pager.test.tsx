import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { offsetParam, pageHref, Pager } from './pager';

const base = { label: 'Pages', pageSize: 30, total: 75 };

function renderPager(node: React.ReactNode) {
  return render(<MemoryRouter>{node}</MemoryRouter>);
}

describe('Pager', () => {
  it('with hrefFor links to the pages that exist, in the URL', () => {
    renderPager(
      <Pager
        {...base}
        offset={30}
        shown={30}
        hrefFor={(to) => `/x?offset=${to}`}
      />,
    );
    const pager = screen.getByRole('navigation', { name: 'Pages' });
    expect(pager).toHaveTextContent('31–60 of 75');
    expect(screen.getByRole('link', { name: 'Previous' })).toHaveAttribute(
      'href',
      '/x?offset=0',
    );
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute(
      'href',
      '/x?offset=60',
    );
  });

  it('with hrefFor has no link past either end, and shows even a single page', () => {
    renderPager(
      <Pager {...base} total={5} offset={0} shown={5} hrefFor={() => '/x'} />,
    );
    expect(screen.getByText('1–5 of 5')).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('with onPage has buttons, disabled at the ends', async () => {
    const onPage = vi.fn();
    renderPager(<Pager {...base} offset={60} shown={15} onPage={onPage} />);
    expect(screen.getByText('61–75 of 75')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onPage).toHaveBeenCalledWith(30);
  });

  it('with onPage a single page needs no pager', () => {
    renderPager(
      <Pager {...base} total={5} offset={0} shown={5} onPage={() => {}} />,
    );
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('reads and writes the offset of the URL', () => {
    expect(offsetParam('30')).toBe(30);
    expect(offsetParam('-3')).toBe(0);
    expect(offsetParam('x')).toBe(0);
    expect(pageHref('/a', 0)).toBe('/a');
    expect(pageHref('/a', 30, 'bob')).toBe('/a?q=bob&offset=30');
  });
});
