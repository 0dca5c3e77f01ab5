import type { ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { SectionCard } from '../../../components/ui/section-card';
import { Skeleton } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { formatDate, formatPhoneNumber } from '../../../lib/format';
import { useClientNumbers } from '../api/get-client-numbers';
import './numbers.css';

/**
 * The inbound numbers a client holds, on its page (the owner's, or staff's under /admin):
 * each with its help text (the answer to HELP) and the day it was assigned. Staff assign numbers; `actions` is
 * where the admin page puts its link to them.
 */
export function ClientNumbersCard({
  clientId,
  asAdmin = false,
  actions,
}: {
  clientId: string;
  asAdmin?: boolean;
  actions?: ReactNode;
}) {
  const numbers = useClientNumbers(clientId, asAdmin);
  return (
    <SectionCard title="Numbers" actions={actions} className="stack-sm">
      {numbers.isPending ? (
        <div className="stack-sm" aria-busy="true">
          <span className="sr-only">Loading the numbers</span>
          <Skeleton height="20px" />
          <Skeleton height="20px" width="60%" />
        </div>
      ) : numbers.isError ? (
        <div className="stack-sm">
          <Alert tone="danger">{`The numbers could not be loaded. ${errorText(numbers.error)}`}</Alert>
          <div>
            <Button onClick={() => void numbers.refetch()}>Try again</Button>
          </div>
        </div>
      ) : numbers.data.length === 0 ? (
        <p className="muted">
          {asAdmin
            ? 'This client holds no numbers.'
            : 'This client holds no numbers yet. Numbers are assigned by the provider; messages sent to them appear in your Inbox.'}
        </p>
      ) : (
        <>
          <p className="muted">
            Messages sent to these numbers appear in the Inbox; replies go out
            from them.
          </p>
          <ul className="plain-list number-list" aria-label="Numbers">
            {numbers.data.map((number) => (
              <li key={number.number}>
                <span className="tabular number-cell">
                  {formatPhoneNumber(number.number)}
                </span>
                <span className="muted">
                  {number.helpText
                    ? `Help text: ${number.helpText}`
                    : 'Default help text'}
                  {` · since ${formatDate(number.dateCreated)}`}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </SectionCard>
  );
}
