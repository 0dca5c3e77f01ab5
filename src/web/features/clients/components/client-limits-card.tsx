import { useState } from 'react';
import { z } from 'zod';
import type { Client } from '../../../../shared/schemas/clients';
import { ClientLimitsSchema } from '../../../../shared/schemas/prices';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { FormActions } from '../../../components/ui/form-actions';
import { SectionCard } from '../../../components/ui/section-card';
import { useToast } from '../../../components/ui/toaster';
import { needsRoleText, useCanCall } from '../../../lib/permissions';
import { useEditForm } from '../../../lib/use-edit-form';
import { useSetClientLimits } from '../api/set-client-limits';
import '../../../components/ui/field.css';

export const LIMITS_SAVED = 'The destinations and throughput have been saved';

const LIMITS_ACCESS = { family: 'CLIENT', verb: 'ADMIN' } as const;

/**
 * A field's text checked by the shared schema of what it becomes; a refusal is the field's
 * error (a wrong prefix in the list included), not one of an item inside it.
 */
function typed<T>(toValue: (text: string) => unknown, schema: z.ZodType<T>) {
  return z.string().transform((text, ctx): T => {
    const result = schema.safeParse(toValue(text.trim()));
    if (result.success) return result.data;
    ctx.addIssue({
      code: 'custom',
      message: result.error.issues[0]?.message ?? 'Invalid value',
    });
    return z.NEVER;
  });
}

/** The prefixes as typed (spaces or commas between them); nothing typed is every open one. */
const LimitsFormSchema = z.object({
  allowedPrefixes: typed((text) => {
    const prefixes = text.split(/[\s,]+/).filter(Boolean);
    return prefixes.length ? prefixes : null;
  }, ClientLimitsSchema.shape.allowedPrefixes),
  maxMessagesPerSecond: typed(
    (text) => (text === '' ? null : Number(text)),
    ClientLimitsSchema.shape.maxMessagesPerSecond,
  ),
});

/** `allowedPrefixes`: null for every open destination (CONTRACT "Destinations"). */
export function allowedText(prefixes: readonly string[] | null) {
  if (prefixes === null) return 'All open destinations';
  return prefixes.length ? prefixes.join(', ') : 'None';
}

/** `maxMessagesPerSecond`: null for no limit. */
export function throughputText(max: number | null) {
  return max === null ? 'No limit' : `${max} messages a second`;
}

function LimitsDetails({ client }: { client: Client }) {
  return (
    <dl className="details">
      <div className="details-pair">
        <dt>Allowed destinations</dt>
        <dd>{allowedText(client.allowedPrefixes)}</dd>
      </div>
      <div className="details-pair">
        <dt>Throughput</dt>
        <dd>{throughputText(client.maxMessagesPerSecond)}</dd>
      </div>
    </dl>
  );
}

/**
 * Where a client may send and how fast (CONTRACT "Destinations"): its owner reads it on the
 * client's page, staff on the admin client page, where ROLE_CLIENT_ADMIN changes it.
 */
export function ClientLimitsCard({
  client,
  asAdmin = false,
}: {
  client: Client;
  asAdmin?: boolean;
}) {
  return (
    <SectionCard title="Destinations and throughput" className="stack-sm">
      {asAdmin ? (
        <AdminLimits client={client} />
      ) : (
        <>
          <LimitsDetails client={client} />
          <p className="muted">
            Destinations with no price of their own are open unless staff close
            them; ask us to change these.
          </p>
        </>
      )}
    </SectionCard>
  );
}

function AdminLimits({ client }: { client: Client }) {
  const canChange = useCanCall(LIMITS_ACCESS);
  const [editing, setEditing] = useState(false);
  if (editing) {
    return <LimitsForm client={client} onDone={() => setEditing(false)} />;
  }
  return (
    <>
      <LimitsDetails client={client} />
      {canChange ? (
        <div>
          <Button size="sm" onClick={() => setEditing(true)}>
            Edit Limits
          </Button>
        </div>
      ) : (
        <p className="muted">{needsRoleText(LIMITS_ACCESS)} to change them.</p>
      )}
    </>
  );
}

function LimitsForm({
  client,
  onDone,
}: {
  client: Client;
  onDone: () => void;
}) {
  const toast = useToast();
  const save = useSetClientLimits();
  // Edit Limits is gone once pressed: the keyboard moves on to the first field.
  const { form, serverError } = useEditForm({
    schema: LimitsFormSchema,
    defaultValues: {
      allowedPrefixes: (client.allowedPrefixes ?? []).join(', '),
      maxMessagesPerSecond:
        client.maxMessagesPerSecond === null
          ? ''
          : String(client.maxMessagesPerSecond),
    },
    focus: 'allowedPrefixes',
    error: save.error,
    labels: {
      allowedPrefixes: 'Allowed prefixes',
      maxMessagesPerSecond: 'Max messages per second',
    },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const onSubmit = handleSubmit((limits) =>
    save.mutate(
      { clientId: client.id, limits },
      {
        onSuccess: () => {
          toast.show(LIMITS_SAVED, { tone: 'success' });
          onDone();
        },
      },
    ),
  );
  return (
    <form className="stack-sm" onSubmit={onSubmit} noValidate>
      {serverError ? <Alert tone="danger">{serverError}</Alert> : null}
      <Field
        label="Allowed prefixes"
        hint="Prefixes separated by commas, such as 44, 353; empty for every open destination"
        error={errors.allowedPrefixes?.message}
        inputProps={{
          ...register('allowedPrefixes'),
          autoComplete: 'off',
        }}
      />
      <Field
        label="Max messages per second"
        hint="A whole number; empty for no limit"
        error={errors.maxMessagesPerSecond?.message}
        inputProps={{
          ...register('maxMessagesPerSecond'),
          autoComplete: 'off',
          inputMode: 'numeric',
        }}
      />
      <FormActions
        submit="Save Limits"
        pending={save.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
