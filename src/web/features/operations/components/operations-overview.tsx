import type { ReactNode } from 'react';
import { MESSAGE_STATES } from '../../../../shared/schemas/messages';
import type {
  OperationsBackup,
  OperationsMethod,
} from '../../../../shared/schemas/operations';
import { Alert } from '../../../components/ui/alert';
import { TableSkeleton } from '../../../components/ui/table-skeleton';
import { errorText } from '../../../lib/api-error';
import { useOperations } from '../api/get-operations';
import { OperationsChart } from './operations-chart';
import './operations.css';
import '../../../components/ui/table.css';

/** Seconds as `0.42 s`, `12 s`; none as an em dash. */
export function secondsText(seconds: number | null): string {
  if (seconds === null) return '—';
  return `${seconds < 10 ? seconds.toFixed(2) : Math.round(seconds)} s`;
}

function Bind({ bound }: { bound: boolean | null }) {
  if (bound === null) {
    return <span className="muted">No bind on this node</span>;
  }
  return bound ? (
    <span className="operations-bind-up">Up</span>
  ) : (
    <span className="operations-bind-down">Down</span>
  );
}

/** The last backup: when, and a failure since then in words. */
function LastBackup({ backup }: { backup: OperationsBackup }) {
  const at = (iso: string) => (
    <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>
  );
  const failed = backup.last && !backup.last.ok ? backup.last : null;
  return (
    <>
      {backup.lastSuccessAt ? at(backup.lastSuccessAt) : 'None yet'}
      {failed ? (
        <span className="operations-bind-down">
          {' '}
          · failed at {at(failed.finishedAt)}: {failed.error}
        </span>
      ) : null}
      {backup.schedule ? (
        <span className="muted">
          {' '}
          · every {backup.schedule.intervalHours} h, keeping{' '}
          {backup.schedule.keep}
        </span>
      ) : (
        <span className="muted"> · not scheduled (BACKUP_DIR unset)</span>
      )}
    </>
  );
}

/** A method without a real connector: its messages go to the simulator, never to a phone. */
function Connector({ simulated }: { simulated: boolean }) {
  return simulated ? (
    <span
      className="operations-simulated"
      title="No connector configured: the built-in simulator reports messages DELIVERED without sending them"
    >
      SIMULATED
    </span>
  ) : (
    <span>Configured</span>
  );
}

function total(states: Record<string, number>): number {
  return Object.values(states).reduce((sum, n) => sum + n, 0);
}

/** One figure per method, in the methods' column order. */
function FigureRow({
  label,
  methods,
  cell,
}: {
  label: string;
  methods: readonly OperationsMethod[];
  cell: (method: OperationsMethod) => ReactNode;
}) {
  return (
    <tr>
      <th scope="row" className="nowrap">
        {label}
      </th>
      {methods.map((method) => (
        <td key={method.method} className="numeric tabular">
          {cell(method)}
        </td>
      ))}
    </tr>
  );
}

/**
 * The Operations screen's body: the queue depth, then per delivery method the last hour's
 * messages by state, the latency from acceptance to a provider taking them, the bind, the
 * inbound messages it brought, and a chart of messages a minute; refreshed every few seconds.
 */
export function OperationsOverview() {
  const operations = useOperations();
  if (operations.isPending) {
    return <TableSkeleton label="Loading the operations figures" rows={3} />;
  }
  // A failed refresh keeps the last figures on screen, with a warning; no figures at all: the error.
  if (!operations.data) {
    return <Alert tone="danger">{errorText(operations.error)}</Alert>;
  }
  const { queueDepth, unrouted, methods, since, backup } = operations.data;
  const updated = new Date(operations.dataUpdatedAt).toLocaleTimeString();
  return (
    <>
      <dl className="operations-facts">
        <div>
          <dt>Waiting in the queue</dt>
          <dd>{queueDepth}</dd>
        </div>
        <div>
          <dt>Not routed yet (last hour)</dt>
          <dd>{total(unrouted)}</dd>
        </div>
        <div>
          <dt>Last backup</dt>
          <dd>
            <LastBackup backup={backup} />
          </dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>
            <time dateTime={new Date(operations.dataUpdatedAt).toISOString()}>
              {updated}
            </time>
          </dd>
        </div>
      </dl>
      {operations.isError ? (
        <Alert tone="warning">
          Could not refresh: {errorText(operations.error)}. Showing the figures
          of {updated}.
        </Alert>
      ) : null}
      {/* Methods as columns: a handful of them, many figures each, so it fits a narrow screen. */}
      <div className="table-wrap">
        <table className="table">
          <caption className="sr-only">
            Delivery methods: the last hour&apos;s messages by state, the submit
            latency and the inbound messages
          </caption>
          <thead>
            <tr>
              <td />
              {methods.map((method) => (
                <th key={method.method} scope="col" className="numeric">
                  {method.method}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <FigureRow
              label="Connector"
              methods={methods}
              cell={(m) => <Connector simulated={m.simulated} />}
            />
            <FigureRow
              label="Bind"
              methods={methods}
              cell={(m) => <Bind bound={m.bound} />}
            />
            <FigureRow
              label="Messages"
              methods={methods}
              cell={(m) => total(m.states)}
            />
            {MESSAGE_STATES.map((state) => (
              <FigureRow
                key={state}
                label={state}
                methods={methods}
                cell={(m) => m.states[state] ?? 0}
              />
            ))}
            <FigureRow
              label="Latency p50"
              methods={methods}
              cell={(m) => secondsText(m.latency.p50)}
            />
            <FigureRow
              label="Latency p95"
              methods={methods}
              cell={(m) => secondsText(m.latency.p95)}
            />
            <FigureRow
              label="Inbound"
              methods={methods}
              cell={(m) => m.inbound.lastHour}
            />
            <FigureRow
              label="Inbound (24 h)"
              methods={methods}
              cell={(m) => m.inbound.lastDay}
            />
          </tbody>
        </table>
      </div>
      <p className="muted">
        Last hour, from acceptance. Latency: from acceptance to a provider
        taking the message. Inbound: messages received through the method for a
        number a client holds, last hour and last 24 hours. The bind and the
        connector are those of the node that answered; a SIMULATED method sends
        nothing.
      </p>
      <OperationsChart since={since} methods={methods} />
    </>
  );
}
