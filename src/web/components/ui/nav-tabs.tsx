import { NavLink } from 'react-router';
import { cx } from '../../lib/cx';
import './tabs.css';
import './nav-tabs.css';

/**
 * Tabs that are links between sibling screens: each has its own URL (reload, Back and shared
 * links work), and the current one carries aria-current="page". For tabs inside one screen,
 * use Tabs.
 */
export function NavTabs({
  label,
  items,
}: {
  label: string;
  items: { to: string; text: string }[];
}) {
  return (
    <nav aria-label={label} className="nav-tabs">
      <ul className="tab-list plain-list">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              className={({ isActive }) => cx('tab', isActive && 'is-selected')}
            >
              {item.text}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
