import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatMoney } from '../../../../shared/money';
import {
  CREDIT_REASON_MAX,
  FreeCreditFormSchema,
  type Balance,
} from '../../../../shared/schemas/balances';
import { Alert } from '../../../components/ui/alert';
import { FormActions } from '../../../components/ui/form-actions';
import { EditableCard } from '../../../components/ui/editable-card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Field } from '../../../components/ui/field';
import { usePanel } from '../../../components/ui/side-panel';
import { Skeleton } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { useServerError } from '../../../lib/server-errors';
import { formatDate } from '../../../lib/format';
import { useAdminBalance } from '../api/get-admin-balance';
import { useGiveFreeCredit } from '../api/give-free-credit';
import { needsRoleText, useCanCall } from '../../../lib/permissions';
import '../../../components/ui/field.css';

const freeCreditQuestion = (amount: string) =>
  `Are you sure you want to give ${amount} free credit to the client?`;

/**
 * The Balance card of the admin client page (spec §2, §3): the balance id is labelled Client
 * ID; a click opens the free-credit panel.
 */
export function AdminBalanceCard({ clientId }: { clientId: string }) {
  const balance = useAdminBalance(clientId);
  const panel = usePanel();
  const update = { family: 'CLIENT', verb: 'UPDATE' } as const;
  const canUpdate = useCanCall(update);

  if (balance.isPending) {
    return (
      <div className="card" aria-busy="true">
        <span className="sr-only">Loading the balance</span>
        <Skeleton width="6em" />
        <Skeleton width="9em" height="32px" />
        <Skeleton height="40px" />
      </div>
    );
  }
  if (balance.isError) {
    return (
      <div className="card">
        <div className="balance-label">Balance</div>
        <Alert tone="danger">{errorText(balance.error)}</Alert>
      </div>
    );
  }

  const current = balance.data;
  return (
    <EditableCard
      label={`Balance ${formatMoney(current.currency, current.amount)}: give free credit`}
      title={<span className="balance-label">Balance</span>}
      hint="Click to give free credit"
      details={[
        ['Client ID', current.id, true],
        ['Updated', formatDate(current.dateUpdated)],
      ]}
      readOnlyReason={canUpdate ? undefined : needsRoleText(update)}
      onEdit={() =>
        panel.showPanel(
          <FreeCreditForm
            clientId={clientId}
            balance={current}
            onDone={panel.closePanel}
          />,
          { title: 'Free Credit' },
        )
      }
    >
      <span className="balance-amount amount">
        {formatMoney(current.currency, current.amount)}
      </span>
    </EditableCard>
  );
}

/**
 * Amount and an optional reason, then a confirmation naming the amount, then the grant (spec
 * §4, §5, §8). The reason is kept on the ledger entry the customer sees (issue 12).
 */
function FreeCreditForm({
  clientId,
  balance: opened,
  onDone,
}: {
  clientId: string;
  /** The balance when the panel opened; the panel follows later changes of it. */
  balance: Balance;
  onDone: () => void;
}) {
  const balance = useAdminBalance(clientId).data ?? opened;
  const toast = useToast();
  const grant = useGiveFreeCredit(clientId);
  const form = useForm<
    z.input<typeof FreeCreditFormSchema>,
    unknown,
    z.output<typeof FreeCreditFormSchema>
  >({
    resolver: zodResolver(FreeCreditFormSchema),
    defaultValues: { amount: '', reason: '' },
    // The note answers a press of Give Free Credit; typing does not change it.
    reValidateMode: 'onSubmit',
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const serverError = useServerError(form, grant.error, {
    amount: 'Amount',
    reason: 'Reason',
  });
  // The grant waiting for confirmation: the amount as canonical decimal text (never a float).
  const [pending, setPending] = useState<z.output<
    typeof FreeCreditFormSchema
  > | null>(null);

  const onSubmit = handleSubmit((values) => setPending(values));

  function confirm({ amount, reason }: z.output<typeof FreeCreditFormSchema>) {
    setPending(null);
    grant.mutate(
      { clientId, balanceId: balance.id, amount, reason },
      {
        onSuccess: (updated) => {
          onDone();
          toast.show(
            `Free credit given. The balance is now ${formatMoney(updated.currency, updated.amount)}.`,
            { tone: 'success' },
          );
        },
      },
    );
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p className="muted">
        Current balance{' '}
        <strong className="amount">
          {formatMoney(balance.currency, balance.amount)}
        </strong>
      </p>
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      <Field
        label="Amount"
        hint={`In ${balance.currency}, up to 4 decimal places`}
        error={errors.amount?.message ?? ''}
        inputProps={{
          ...register('amount'),
          inputMode: 'decimal',
          autoComplete: 'off',
        }}
      />
      <Field
        label="Reason"
        hint={`Optional, up to ${CREDIT_REASON_MAX} characters; the customer sees it in their Top-up History`}
        error={errors.reason?.message ?? ''}
        inputProps={{ ...register('reason'), autoComplete: 'off' }}
      />
      <FormActions
        submit="Give Free Credit"
        pending={grant.isPending}
        onCancel={onDone}
      />
      <ConfirmDialog
        open={pending !== null}
        text={freeCreditQuestion(pending?.amount ?? '')}
        onCancel={() => setPending(null)}
        onConfirm={() => pending && confirm(pending)}
      />
    </form>
  );
}
