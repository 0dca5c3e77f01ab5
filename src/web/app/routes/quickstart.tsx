import { PageHeader } from '../../components/ui/page-header';

export function QuickStartRoute() {
  return <PageHeader title="Quick Start" />;
}
