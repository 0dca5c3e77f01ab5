import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { ButtonLink } from '../../../components/ui/button';
import { DataTable } from '../../../components/ui/data-table';
import { offsetParam } from '../../../components/ui/pager';
import { usePanel } from '../../../components/ui/side-panel';
import { paths } from '../../../config/paths';
import { useMessages } from '../api/get-messages';
import {
  filtersFromSearch,
  hasFilters,
  searchFor,
  type MessageFilters,
} from '../message-filters';
import { isInFlight } from '../message-log-model';
import { MessageDetail } from './message-detail';
import { MessageFiltersForm } from './message-filters-form';
import { useMessageColumns } from './message-table';
import './message-log.css';

/** The log's filters and page, read from the URL of the current screen. */
export function useMessageLogParams(): {
  filters: MessageFilters;
  offset: number;
} {
  const [params] = useSearchParams();
  return {
    filters: filtersFromSearch(params),
    offset: offsetParam(params.get('offset')),
  };
}

/**
 * `?message={id}` (a link to one message, such as after a send) opens that message's panel.
 * The parameter is dropped from the URL first, then the panel opens on the page that is left,
 * so a reload or Back does not open it again and navigating still closes it.
 */
function useLinkedMessage(clientId: string) {
  const [params, setParams] = useSearchParams();
  const linked = params.get('message');
  const { showPanel } = usePanel();
  const [toOpen, setToOpen] = useState<string | null>(null);
  if (linked && toOpen !== linked) setToOpen(linked);

  useEffect(() => {
    if (!linked) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('message');
        return next;
      },
      { replace: true },
    );
  }, [linked, setParams]);

  useEffect(() => {
    if (!toOpen || linked) return;
    showPanel(<MessageDetail clientId={clientId} messageId={toOpen} />, {
      title: 'Message',
    });
    setToOpen(null);
  }, [toOpen, linked, showPanel, clientId]);
}

/**
 * The client's messages, newest first, 30 a page: filters and page in the URL, a row opens the
 * message with its attempts, and the page refreshes itself while messages are in flight.
 */
export function MessageLog({ clientId }: { clientId: string }) {
  useLinkedMessage(clientId);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { filters, offset } = useMessageLogParams();
  const messages = useMessages({ clientId, filters, offset });
  const hrefFor = (next: MessageFilters, to = 0) =>
    `${pathname}${searchFor(next, to)}`;
  const filterKey = searchFor(filters);

  return (
    <div className="stack">
      {/* Remounted when the URL's filters change (Back, a link), so it shows them. */}
      <MessageFiltersForm
        key={filterKey}
        filters={filters}
        onApply={(next) => void navigate(hrefFor(next))}
      />
      {filters.batchId ? (
        <p className="muted batch-filter-note">
          Showing the messages of one batch.{' '}
          <Link to={paths.batch(filters.batchId)}>Its progress</Link>
          {' · '}
          <Link to={hrefFor({ ...filters, batchId: undefined })}>
            All messages
          </Link>
        </p>
      ) : null}
      <MessageLogBody
        query={messages}
        filters={filters}
        offset={offset}
        clientId={clientId}
        hrefFor={hrefFor}
      />
    </div>
  );
}

function MessageLogBody({
  query,
  filters,
  offset,
  clientId,
  hrefFor,
}: {
  query: ReturnType<typeof useMessages>;
  filters: MessageFilters;
  offset: number;
  clientId: string;
  hrefFor: (filters: MessageFilters, offset?: number) => string;
}) {
  const columns = useMessageColumns({ clientId });
  return (
    <DataTable
      query={query}
      rows={(data) => data.messages}
      rowKey={(message) => message.id}
      rowClassName={() => 'row-link'}
      columns={columns}
      className="message-table"
      caption={(messages, data) =>
        `Messages ${offset + 1} to ${offset + messages.length} of ${data.total}`
      }
      loadingLabel="Loading messages"
      skeletonRows={6}
      errorPrefix="The messages could not be loaded. "
      {...emptyLog(filters, offset, hrefFor)}
      note={(data) =>
        data.messages.some(isInFlight) ? (
          <p className="muted live-note">
            <span className="live-dot" aria-hidden="true" />
            Updating every 2 seconds while messages are on their way.
          </p>
        ) : null
      }
      pager={{
        label: 'Message pages',
        offset,
        pageSize: DEFAULT_PAGE_SIZE,
        total: (data) => data.total,
        hrefFor: (to) => hrefFor(filters, to),
      }}
    />
  );
}

/** What an empty page says, and the way out of it. */
function emptyLog(
  filters: MessageFilters,
  offset: number,
  hrefFor: (filters: MessageFilters, offset?: number) => string,
): { empty: string; emptyAction: ReactNode } {
  if (offset > 0) {
    return {
      empty: 'No messages on this page.',
      emptyAction: <ButtonLink to={hrefFor(filters)}>First page</ButtonLink>,
    };
  }
  if (hasFilters(filters)) {
    return {
      empty: 'No messages match these filters.',
      emptyAction: <ButtonLink to={hrefFor({})}>Clear filters</ButtonLink>,
    };
  }
  return {
    empty:
      'No messages yet. Messages you send appear here with their delivery state.',
    emptyAction: (
      <ButtonLink to={paths.sms} variant="primary">
        Send an SMS
      </ButtonLink>
    ),
  };
}
