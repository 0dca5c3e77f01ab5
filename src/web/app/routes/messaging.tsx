import { Outlet } from 'react-router';
import { NavTabs } from '../../components/ui/nav-tabs';
import { paths } from '../../config/paths';

/** /messaging/*: tabs between sending (one, or in bulk) and the log of what was sent, then the screen. */
export function MessagingRoute() {
  return (
    <>
      <NavTabs
        label="Messaging"
        items={[
          { to: paths.sms, text: 'Send SMS' },
          { to: paths.bulk, text: 'Bulk send' },
          { to: paths.messageLog, text: 'Message Log' },
        ]}
      />
      <Outlet />
    </>
  );
}
