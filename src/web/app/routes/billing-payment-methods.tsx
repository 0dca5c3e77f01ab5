import { PageHeader } from '../../components/ui/page-header';

export function BillingPaymentMethodsRoute() {
  return <PageHeader title="Payment Methods" />;
}
