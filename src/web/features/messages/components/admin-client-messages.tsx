import { useLocation, useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { offsetParam, Pager, pageHref } from '../../../components/ui/pager';
import { TableSkeleton } from '../../../components/ui/table-skeleton';
import { errorText } from '../../../lib/api-error';
import { useMessages } from '../api/get-messages';
import { MessageTable } from './message-table';
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

  return (
    <section className="stack-sm" aria-labelledby="admin-messages-title">
      <h2 id="admin-messages-title" className="section-title">
        Messages
      </h2>
      {messages.isPending ? (
        <TableSkeleton label="Loading messages" rows={3} />
      ) : messages.isError ? (
        <div className="stack-sm">
          <Alert tone="danger">
            {`The messages could not be loaded. ${errorText(messages.error)}`}
          </Alert>
          <div>
            <Button onClick={() => void messages.refetch()}>Try again</Button>
          </div>
        </div>
      ) : messages.data.messages.length === 0 ? (
        <div className="card empty-state stack-sm">
          <p className="empty-text">
            {offset > 0
              ? 'No messages on this page.'
              : 'This client has sent no messages.'}
          </p>
          {offset > 0 ? (
            <div>
              <ButtonLink to={pathname}>First page</ButtonLink>
            </div>
          ) : null}
        </div>
      ) : (
        <>
          <MessageTable
            source={source}
            messages={messages.data.messages}
            caption={`Messages of the client, ${offset + 1} to ${offset + messages.data.messages.length} of ${messages.data.total}`}
            busy={messages.isPlaceholderData}
            compact
          />
          <Pager
            label="Message pages"
            offset={offset}
            shown={messages.data.messages.length}
            total={messages.data.total}
            pageSize={DEFAULT_PAGE_SIZE}
            hrefFor={(to) => pageHref(pathname, to)}
          />
        </>
      )}
    </section>
  );
}
