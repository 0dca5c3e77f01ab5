import type { ReactNode } from 'react';
import { Button, ButtonLink } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { Skeleton } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { useDefaultBalance } from '../../features/balances/api/get-default-balance';
import { BalanceCard } from '../../features/balances/components/balance-card';
import { LowBalanceWarning } from '../../features/balances/components/low-balance-warning';
import { ClientCardLink } from '../../features/clients/components/client-card';
import { useNewClient } from '../../features/clients/components/use-new-client';
import { useCurrentClient } from '../current-client';
import './quickstart.css';

function Step({
  number,
  title,
  done,
  children,
}: {
  number: number;
  title: string;
  done: boolean;
  children: ReactNode;
}) {
  return (
    <li className="step">
      <span
        className={done ? 'step-number is-done' : 'step-number'}
        aria-hidden="true"
      >
        {done ? '✓' : number}
      </span>
      <section className="step-body" aria-labelledby={`step-${number}`}>
        <h2 id={`step-${number}`} className="section-title">
          {title}
        </h2>
        {/* The tick is drawn for the eye; this says it to a screen reader. */}
        {done ? <p className="sr-only">Done</p> : null}
        {children}
      </section>
    </li>
  );
}

/** Three steps to a first SMS (spec §2); the third only once a client and a balance exist. */
export function QuickStartRoute() {
  const { currentClient } = useCurrentClient();
  const newClient = useNewClient();
  const balance = useDefaultBalance(currentClient?.id ?? null);
  const ready = currentClient !== null && balance.data !== undefined;
  // Topped up means money on it: a new client's balance of 0.00 exists but is not done.
  const toppedUp = ready && (balance.data?.amount ?? 0) > 0;

  return (
    <div className="page-narrow">
      <PageHeader
        title="Quick Start"
        description="Three steps from a new account to your first SMS."
      />
      <ol className="steps">
        <Step number={1} title="Create a Client" done={currentClient !== null}>
          {currentClient ? (
            <ClientCardLink client={currentClient} current />
          ) : (
            <div className="stack-sm">
              <p className="muted">
                A client has an id and a secret: your systems use them to send
                messages, and each client has its own balance.
              </p>
              <div>
                <Button variant="primary" onClick={newClient}>
                  Create Client
                </Button>
              </div>
            </div>
          )}
        </Step>
        <Step number={2} title="Top Up the Balance" done={toppedUp}>
          {!currentClient ? (
            <p className="muted">
              Create a client first: the balance belongs to it.
            </p>
          ) : balance.data ? (
            <div className="stack-sm">
              <LowBalanceWarning balance={balance.data} />
              <BalanceCard balance={balance.data} />
            </div>
          ) : balance.isPending ? (
            <Skeleton height="104px" />
          ) : (
            <p className="muted">No balance</p>
          )}
        </Step>
        <Step number={3} title="Send an SMS" done={false}>
          {ready ? (
            <div>
              <ButtonLink to={paths.sms} variant="primary">
                Send an SMS
              </ButtonLink>
            </div>
          ) : (
            <p className="muted">
              Available once you have a client and a balance.
            </p>
          )}
        </Step>
      </ol>
    </div>
  );
}
