import { Outlet } from 'react-router';
import { NavTabs } from '../../components/ui/nav-tabs';
import { paths } from '../../config/paths';

/**
 * /messaging/*: tabs between sending (one, or in bulk), the log of what was sent, the messages
 * received (Inbox) and the numbers that opted out, then the screen.
 */
export function MessagingRoute() {
  return (
    <>
      <NavTabs
        label="Messaging"
        items={[
          { to: paths.sms, text: 'Send SMS' },
          { to: paths.bulk, text: 'Bulk send' },
          { to: paths.messageLog, text: 'Message Log' },
          { to: paths.inbox, text: 'Inbox' },
          { to: paths.optouts, text: 'Opt-outs' },
        ]}
      />
      <Outlet />
    </>
  );
}
