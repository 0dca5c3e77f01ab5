import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { formatAmount, formatMoney } from '../../../../shared/money';
import type { Balance } from '../../../../shared/schemas/balances';
import {
  UpdateBalanceSchema,
  type UpdateBalanceInput,
} from '../../../../shared/schemas/balances';
import { Alert } from '../../../components/ui/alert';
import { FormActions } from '../../../components/ui/form-actions';
import { SectionCard } from '../../../components/ui/section-card';
import { Field } from '../../../components/ui/field';
import { Skeleton } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { useServerError } from '../../../lib/server-errors';
import { needsRoleText, useCanCall } from '../../../lib/permissions';
import { useAdminBalance } from '../api/get-admin-balance';
import { useSetBalanceThreshold } from '../api/set-balance-threshold';
import '../../../components/ui/field.css';

export const THRESHOLD_SAVED = 'The low-balance threshold has been saved';

const THRESHOLD_ACCESS = { family: 'CLIENT', verb: 'UPDATE' } as const;

/**
 * The client's low-balance threshold (CONTRACT.md "Accountability"): below it, the customer's
 * balance widget and Quick Start warn. 0 turns the warning off. Changing it needs CLIENT
 * UPDATE; others see the value and why they cannot change it.
 */
export function AdminThresholdCard({ clientId }: { clientId: string }) {
  const balance = useAdminBalance(clientId);
  if (balance.isPending) {
    return (
      <div className="card" aria-busy="true">
        <span className="sr-only">Loading the threshold</span>
        <Skeleton width="10em" />
        <Skeleton height="40px" />
      </div>
    );
  }
  if (balance.isError) {
    return (
      <SectionCard title="Low-balance threshold" className="stack-sm">
        <Alert tone="danger">{errorText(balance.error)}</Alert>
      </SectionCard>
    );
  }
  // A new key per saved value: the form starts again from what the server holds.
  return (
    <ThresholdForm
      key={`${balance.data.id}:${balance.data.minThreshold}`}
      clientId={clientId}
      balance={balance.data}
    />
  );
}

function ThresholdForm({
  clientId,
  balance,
}: {
  clientId: string;
  balance: Balance;
}) {
  const save = useSetBalanceThreshold(clientId);
  const toast = useToast();
  const canUpdate = useCanCall(THRESHOLD_ACCESS);
  const form = useForm<UpdateBalanceInput, unknown, { minThreshold: string }>({
    resolver: zodResolver(UpdateBalanceSchema),
    defaultValues: { minThreshold: formatAmount(balance.minThreshold) },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const serverError = useServerError(form, save.error, {
    minThreshold: 'Minimum balance',
  });

  const onSubmit = handleSubmit(({ minThreshold }) =>
    save.mutate(
      { clientId, balanceId: balance.id, minThreshold },
      { onSuccess: () => toast.show(THRESHOLD_SAVED, { tone: 'success' }) },
    ),
  );

  return (
    <SectionCard title="Low-balance threshold" className="stack-sm">
      <p className="muted">
        {balance.minThreshold > 0
          ? `The customer is warned below ${formatMoney(balance.currency, balance.minThreshold)}.`
          : 'No warning is set: 0 turns it off.'}
      </p>
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      {canUpdate ? (
        <form className="stack-sm" onSubmit={onSubmit} noValidate>
          <Field
            label="Minimum balance"
            hint={`In ${balance.currency}; 0 turns the warning off`}
            error={errors.minThreshold?.message}
            inputProps={{
              ...register('minThreshold'),
              inputMode: 'decimal',
              autoComplete: 'off',
            }}
          />
          <FormActions submit="Save Threshold" pending={save.isPending} />
        </form>
      ) : (
        <p className="muted">{needsRoleText(THRESHOLD_ACCESS)} to change it.</p>
      )}
    </SectionCard>
  );
}
