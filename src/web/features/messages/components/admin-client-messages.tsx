import { useLocation, useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { ButtonLink } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/data-table';
import { offsetParam, pageHref } from '../../../components/ui/pager';
import { useMessages } from '../api/get-messages';
import { useMessageColumns } from './message-table';
import './message-log.css';

/**
 * A client's messages for staff (the admin calls): a compact table with the same badges and
 * the same side panel as the customer's log, its page in the URL (`?offset=`).
 */
export function AdminClientMessages({ clientId }: { clientId: string }) {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const offset = offsetParam(params.get('offset'));
  const source = { clientId, asAdmin: true };
  const messages = useMessages({ ...source, offset });
  const columns = useMessageColumns(source, true);

  return (
    <section className="stack-sm" aria-labelledby="admin-messages-title">
      <h2 id="admin-messages-title" className="section-title">
        Messages
      </h2>
      <DataTable
        query={messages}
        rows={(data) => data.messages}
        rowKey={(message) => message.id}
        rowClassName={() => 'row-link'}
        columns={columns}
        className="message-table"
        caption={(rows, data) =>
          `Messages of the client, ${offset + 1} to ${offset + rows.length} of ${data.total}`
        }
        loadingLabel="Loading messages"
        skeletonRows={3}
        errorPrefix="The messages could not be loaded. "
        empty={
          offset > 0
            ? 'No messages on this page.'
            : 'This client has sent no messages.'
        }
        emptyAction={
          offset > 0 ? <ButtonLink to={pathname}>First page</ButtonLink> : null
        }
        pager={{
          label: 'Message pages',
          offset,
          pageSize: DEFAULT_PAGE_SIZE,
          total: (data) => data.total,
          hrefFor: (to) => pageHref(pathname, to),
        }}
      />
    </section>
  );
}
