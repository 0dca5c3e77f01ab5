import { useState } from 'react';
import { Tabs } from '../../../components/ui/tabs';

const TOPUP_TAB = 'billing.balance#topup_history';
const USAGE_TAB = 'billing.balance#usage_history';

/** The two history tabs of /billing/balance (spec §2); the first is selected on load. */
export function BalanceHistory() {
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
          content: (
            <section className="card">
              <h2 className="section-title">Top-up History</h2>
              <p className="muted">No top-ups yet.</p>
            </section>
          ),
        },
        {
          id: USAGE_TAB,
          label: 'Usage History',
          content: (
            <section className="card">
              <h2 className="section-title">Usage History</h2>
              <p className="muted">No usage yet.</p>
            </section>
          ),
        },
      ]}
    />
  );
}
