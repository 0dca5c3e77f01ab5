import type { Client } from '../../../../shared/schemas/clients';
import type {
  RouteSplit,
  RouteSplitWithShare,
} from '../../../../shared/schemas/route-splits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { usePanel } from '../../../components/ui/side-panel';
import { Skeleton } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/api-error';
import { useCanCall } from '../../../lib/permissions';
import { routeSplitAccess } from '../access';
import { useRouteSplits } from '../api/get-route-splits';
import { trafficShares } from '../traffic-share';
import { RouteSplitForm } from './route-split-form';
import '../../../components/ui/table.css';
import './route-splits.css';

/**
 * A client's Route Splits (spec §2): New Route Split, and a click on a split opens it to
 * edit or delete. Each split shows its configured share of the client's traffic and the share
 * of the client's messages it really carried over the last 24 hours (counted by the server).
 * New, edit and delete are offered to the roles that may make those calls; the screen shows
 * the list only to those who may list splits.
 */
export function RouteSplitList({ client }: { client: Client }) {
  const splits = useRouteSplits(client.id);
  const panel = usePanel();
  const canCreate = useCanCall(routeSplitAccess.create);
  const allowed = {
    update: useCanCall(routeSplitAccess.update),
    remove: useCanCall(routeSplitAccess.remove),
  };

  function open(split?: RouteSplit) {
    // Decided here: the panel renders outside the screen, where the roles are not provided.
    panel.showPanel(
      <RouteSplitForm
        client={client}
        split={split}
        onDone={panel.closePanel}
        allowed={allowed}
      />,
      { title: split ? 'Route Split' : 'New Route Split' },
    );
  }

  return (
    <section className="stack-sm" aria-labelledby="route-splits-title">
      <div className="section-header">
        <h2 id="route-splits-title" className="section-title">
          Route Splits
        </h2>
        {canCreate ? (
          <Button variant="primary" size="sm" onClick={() => open()}>
            New Route Split
          </Button>
        ) : null}
      </div>
      {splits.isPending ? (
        <div aria-busy="true">
          <span className="sr-only">Loading route splits</span>
          <Skeleton height="96px" />
        </div>
      ) : splits.isError ? (
        <Alert tone="danger">{errorText(splits.error)}</Alert>
      ) : splits.data.length === 0 ? (
        <div className="card empty-state">
          <p className="empty-text">This client has no route splits.</p>
        </div>
      ) : (
        <SplitTable
          splits={splits.data}
          onOpen={allowed.update || allowed.remove ? open : undefined}
        />
      )}
    </section>
  );
}

function SplitTable({
  splits,
  onOpen,
}: {
  splits: RouteSplitWithShare[];
  /** Absent when the user may neither edit nor delete a split. */
  onOpen?: (split: RouteSplit) => void;
}) {
  const shares = trafficShares(splits);
  return (
    <div className="table-wrap card">
      <table className="table">
        <caption className="sr-only">Route splits</caption>
        <thead>
          <tr>
            <th scope="col">Delivery method</th>
            <th scope="col" className="numeric">
              Weight
            </th>
            <th scope="col" className="numeric">
              Share
            </th>
            <th scope="col" className="numeric">
              Carried (24 h)
            </th>
          </tr>
        </thead>
        <tbody>
          {splits.map((split) => (
            <tr key={split.id} className={onOpen ? 'row-link' : undefined}>
              <td>
                {/* Stretched over the row: clicking anywhere on it opens the split. */}
                {onOpen ? (
                  <button
                    type="button"
                    className="row-link-target link-button"
                    aria-label={`${split.deliveryMethod}, weight ${split.weight}: edit or delete`}
                    onClick={() => onOpen(split)}
                  >
                    {split.deliveryMethod}
                  </button>
                ) : (
                  split.deliveryMethod
                )}
              </td>
              <td className="numeric tabular">{split.weight}</td>
              <td className="numeric tabular">{shares.get(split.id)}</td>
              <td
                className="numeric tabular"
                title={`${split.messages24h ?? 0} messages in the last 24 hours`}
              >
                {carried(split)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** '70.2 % (702)', or '—' before the client sent anything in the last 24 hours. */
function carried(split: RouteSplitWithShare): string {
  if (split.realisedShare == null) return '—';
  const percent = (Math.round(split.realisedShare * 1000) / 10).toString();
  return `${percent} % (${split.messages24h})`;
}
