import type { Client } from '../../../../shared/schemas/clients';
import type {
  RouteSplit,
  RouteSplitWithShare,
} from '../../../../shared/schemas/route-splits';
import { Button } from '../../../components/ui/button';
import { DataTable, type TableQuery } from '../../../components/ui/data-table';
import { usePanel } from '../../../components/ui/side-panel';
import { useCanCall } from '../../../lib/permissions';
import { routeSplitAccess } from '../access';
import { useRouteSplits } from '../api/get-route-splits';
import { trafficShares } from '../traffic-share';
import { RouteSplitForm } from './route-split-form';
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
      <SplitTable
        query={splits}
        onOpen={allowed.update || allowed.remove ? open : undefined}
      />
    </section>
  );
}

function SplitTable({
  query,
  onOpen,
}: {
  query: TableQuery<RouteSplitWithShare[]>;
  /** Absent when the user may neither edit nor delete a split. */
  onOpen?: (split: RouteSplit) => void;
}) {
  const shares = trafficShares(query.data ?? []);
  return (
    <DataTable
      query={query}
      rows={(splits) => splits}
      rowKey={(split) => split.id}
      rowClassName={() => (onOpen ? 'row-link' : undefined)}
      columns={[
        {
          header: 'Delivery method',
          label: null,
          // Stretched over the row: clicking anywhere on it opens the split.
          cell: (split) =>
            onOpen ? (
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
            ),
        },
        { header: 'Weight', cell: (split) => split.weight, numeric: true },
        {
          header: 'Share',
          cell: (split) => shares.get(split.id),
          numeric: true,
        },
        {
          header: 'Carried (24 h)',
          numeric: true,
          cell: (split) => (
            <span
              title={`${split.messages24h ?? 0} messages in the last 24 hours`}
            >
              {carried(split)}
            </span>
          ),
        },
      ]}
      caption={() => 'Route splits'}
      loadingLabel="Loading route splits"
      skeletonRows={2}
      empty="This client has no route splits."
    />
  );
}

/** '70.2 % (702)', or '—' before the client sent anything in the last 24 hours. */
function carried(split: RouteSplitWithShare): string {
  if (split.realisedShare == null) return '—';
  const percent = (Math.round(split.realisedShare * 1000) / 10).toString();
  return `${percent} % (${split.messages24h})`;
}
