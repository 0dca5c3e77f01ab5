import type { ReactNode } from 'react';
import { matchPath, NavLink, useLocation } from 'react-router';
import { NOT_AVAILABLE, type NavItem } from '../../config/nav';
import { cx } from '../../lib/cx';
import './sidebar.css';

/**
 * Renders sidebar data (config/nav.ts): an item with a url navigates, one with an alert shows
 * it, one with neither shows the not-available message; groups open and close by click.
 */
export function Sidebar({
  items,
  expanded,
  onToggle,
  onAlert,
  renderComponent,
}: {
  items: NavItem[];
  expanded: ReadonlySet<string>;
  onToggle: (name: string) => void;
  onAlert: (text: string) => void;
  renderComponent: (name: string) => ReactNode;
}) {
  const { pathname } = useLocation();
  const isActive = (url: string) =>
    matchPath({ path: url, end: false }, pathname) !== null;

  function renderItem(item: NavItem): ReactNode {
    if (item.type === 'component') {
      return (
        <li key={item.name} className="sidebar-widget">
          {renderComponent(item.name)}
        </li>
      );
    }
    if (item.type === 'expand') {
      const open = expanded.has(item.name);
      const groupId = `nav-group-${item.name.toLowerCase().replace(/\W+/g, '-')}`;
      return (
        <li key={item.name}>
          <button
            type="button"
            className={cx(
              'nav-item',
              'nav-group',
              isActive(item.url) && !open && 'is-active',
            )}
            aria-expanded={open}
            aria-controls={groupId}
            onClick={() => onToggle(item.name)}
          >
            <span>{item.name}</span>
            <span
              aria-hidden="true"
              className={cx('chevron', open && 'is-open')}
            />
          </button>
          <ul id={groupId} className="nav-children" hidden={!open}>
            {item.children.map(renderItem)}
          </ul>
        </li>
      );
    }
    if (item.url) {
      return (
        <li key={item.name}>
          <NavLink
            to={item.url}
            className={({ isActive: active }) =>
              cx('nav-item', active && 'is-active')
            }
          >
            {item.name}
          </NavLink>
        </li>
      );
    }
    return (
      <li key={item.name}>
        <button
          type="button"
          className="nav-item"
          onClick={() => onAlert(item.alert ?? NOT_AVAILABLE)}
        >
          {item.name}
        </button>
      </li>
    );
  }

  return <ul className="nav-list">{items.map(renderItem)}</ul>;
}
