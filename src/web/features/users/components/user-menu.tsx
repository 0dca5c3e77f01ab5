import { useNavigate } from 'react-router';
import { HoverDropdown } from '../../../components/ui/hover-dropdown';
import { Skeleton } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';

/** 'Hello' plus the first name, or 'Hello user' (spec §2). */
function greeting(firstName: string | undefined): string {
  return `Hello ${firstName?.trim() || 'user'}`;
}

/** The navbar's user menu: My User, My Clients, Change Password, Logout. */
export function UserMenu({
  firstName,
  loading,
  onLogout,
  extraItems = [],
}: {
  firstName: string | undefined;
  loading: boolean;
  onLogout: () => void;
  extraItems?: { key: string; text: string; onSelect: () => void }[];
}) {
  const navigate = useNavigate();
  if (loading) return <Skeleton width="7em" height="20px" />;
  return (
    <HoverDropdown
      label={greeting(firstName)}
      items={[
        {
          key: 'me',
          text: 'My User',
          onSelect: () => navigate(paths.myUser),
        },
        {
          key: 'clients',
          text: 'My Clients',
          onSelect: () => navigate(paths.clients),
        },
        {
          key: 'password',
          text: 'Change Password',
          onSelect: () => navigate(paths.changePassword),
        },
        ...extraItems,
        { key: 'logout', text: 'Logout', onSelect: onLogout },
      ]}
    />
  );
}
