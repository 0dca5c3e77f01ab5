import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  DEFAULT_ROUTE_WEIGHT,
  DELIVERY_METHODS,
} from '../../../../shared/limits';
import type { Client } from '../../../../shared/schemas/clients';
import {
  UpdateRouteSplitSchema,
  type RouteSplit,
} from '../../../../shared/schemas/route-splits';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Field } from '../../../components/ui/field';
import { SelectBox } from '../../../components/ui/select-box';
import { useToast } from '../../../components/ui/toaster';

import { useServerError } from '../../../lib/server-errors';
import { needsRoleText } from '../../../lib/permissions';
import { routeSplitAccess } from '../access';
import { useRouteSplitMutations } from '../api/save-route-split';
import './route-splits.css';
import '../../../components/ui/field.css';

const DELETE_SPLIT_QUESTION =
  'Are you sure you want to delete the route split?';

const methodOptions = DELIVERY_METHODS.map((method) => ({
  key: method,
  text: method,
}));

type FormInput = z.input<typeof UpdateRouteSplitSchema>;
type FormOutput = z.output<typeof UpdateRouteSplitSchema>;

/**
 * Creates a split (delivery method, weight 10 by default) or, given one, edits or deletes it
 * (spec §2, §3, §8). The same shared schema validates here and on the server. Update and
 * Delete are offered as `allowed` says (the list decides it from the user's roles).
 */
export function RouteSplitForm({
  client,
  split,
  onDone,
  allowed = { update: true, remove: true },
}: {
  client: Client;
  split?: RouteSplit;
  onDone: () => void;
  allowed?: { update: boolean; remove: boolean };
}) {
  const canSave = !split || allowed.update;
  const toast = useToast();
  const { create, update, remove } = useRouteSplitMutations(client.id);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(UpdateRouteSplitSchema),
    defaultValues: {
      deliveryMethod: split?.deliveryMethod ?? DELIVERY_METHODS[0],
      weight: String(split?.weight ?? DEFAULT_ROUTE_WEIGHT),
    },
  });
  const {
    control,
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const serverError = useServerError(
    form,
    create.error ?? update.error ?? remove.error,
    { deliveryMethod: 'Delivery Method', weight: 'Weight' },
  );

  const saving = create.isPending || update.isPending;
  const succeed = (text: string) => () => {
    onDone();
    toast.show(text, { tone: 'success' });
  };

  const onSubmit = handleSubmit((values) => {
    if (split) {
      update.mutate(
        { id: split.id, ...values },
        { onSuccess: succeed('The route split has been updated') },
      );
    } else {
      create.mutate(
        { userId: client.userId, clientId: client.id, ...values },
        { onSuccess: succeed('The route split has been created') },
      );
    }
  });

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      <Controller
        control={control}
        name="deliveryMethod"
        render={({ field }) => (
          <SelectBox
            label="Delivery Method"
            options={methodOptions}
            value={String(field.value)}
            onChange={field.onChange}
          />
        )}
      />
      <Field
        label="Weight"
        hint="Traffic is shared between the splits in proportion to their weights."
        error={errors.weight?.message ?? ''}
        inputProps={{
          ...register('weight'),
          type: 'number',
          inputMode: 'numeric',
          min: 0,
          step: 1,
        }}
      />
      {canSave ? null : (
        <p className="muted">
          {needsRoleText(routeSplitAccess.update)} to change it.
        </p>
      )}
      <div className="form-actions-inline">
        {canSave ? (
          <Button type="submit" variant="primary" pending={saving}>
            {split ? 'Update' : 'Create'}
          </Button>
        ) : null}
        <Button onClick={onDone} disabled={saving || remove.isPending}>
          Cancel
        </Button>
        {split && allowed.remove ? (
          <Button
            variant="danger"
            className="push-right"
            pending={remove.isPending}
            disabled={saving}
            onClick={() => setConfirmingDelete(true)}
          >
            Delete
          </Button>
        ) : null}
      </div>
      {split ? (
        <ConfirmDialog
          open={confirmingDelete}
          destructive
          text={DELETE_SPLIT_QUESTION}
          onCancel={() => setConfirmingDelete(false)}
          onConfirm={() => {
            setConfirmingDelete(false);
            remove.mutate(split.id, {
              onSuccess: succeed('The route split has been deleted'),
            });
          }}
        />
      ) : null}
    </form>
  );
}
