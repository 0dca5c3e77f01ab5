import { useState } from 'react';
import { SectionCard } from '../../../components/ui/section-card';
import { Tabs } from '../../../components/ui/tabs';
import { TopupHistory } from './topup-history';
import { UsageHistory } from './usage-history';

const TOPUP_TAB = 'billing.balance#topup_history';
const USAGE_TAB = 'billing.balance#usage_history';

/** A tab without a client: the heading, and why there is nothing under it. */
function NoClient({ title, text }: { title: string; text: string }) {
  return (
    <SectionCard title={title}>
      <p className="muted">{text}</p>
    </SectionCard>
  );
}

/**
 * The two history tabs of /billing/balance (spec §2); the first is selected on load. They show
 * the current client's ledger: credits under Top-up History, debits and a per-day chart under
 * Usage History.
 */
export function BalanceHistory({
  clientId,
  currency,
}: {
  /** The current client, or null before the user has one. */
  clientId: string | null;
  currency: string;
}) {
  const [selected, setSelected] = useState(TOPUP_TAB);
  return (
    <Tabs
      label="Balance history"
      selected={selected}
      onSelect={setSelected}
      tabs={[
        {
          id: TOPUP_TAB,
          label: 'Top-up History',
          content: clientId ? (
            <TopupHistory clientId={clientId} currency={currency} />
          ) : (
            <NoClient title="Top-up History" text="No top-ups yet." />
          ),
        },
        {
          id: USAGE_TAB,
          label: 'Usage History',
          content: clientId ? (
            <UsageHistory clientId={clientId} currency={currency} />
          ) : (
            <NoClient title="Usage History" text="No usage yet." />
          ),
        },
      ]}
    />
  );
}
