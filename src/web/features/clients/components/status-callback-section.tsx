import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  InboundCallbackUrlSchema,
  StatusCallbackUrlSchema,
  type Client,
  type OwnClient,
} from '../../../../shared/schemas/clients';
import { Alert } from '../../../components/ui/alert';
import { SectionCard } from '../../../components/ui/section-card';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Field } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { callbackOutcome } from '../../../lib/callback-outcome';
import { useServerError } from '../../../lib/server-errors';
import { useRotateSigningKey } from '../api/rotate-signing-key';
import {
  useSendTestEvent,
  useSetStatusCallbackUrl,
} from '../api/status-callback';
import { SecretField } from './secret-field';
import './clients.css';

const FormSchema = z.object({
  statusCallbackUrl: StatusCallbackUrlSchema,
  inboundCallbackUrl: InboundCallbackUrlSchema,
});
const FIELD_LABELS = {
  statusCallbackUrl: 'Status callback URL',
  inboundCallbackUrl: 'Inbound callback URL',
};

/** The toast of a save, by which URLs it changed. */
function savedText(status: boolean, inbound: boolean): string {
  if (status && !inbound) return 'The status callback URL has been saved';
  if (inbound && !status) return 'The inbound callback URL has been saved';
  return 'The callback URLs have been saved';
}

const ROTATE_KEY_QUESTION =
  'Are you sure you want to rotate the signing key? Callbacks are signed with the new key at once, and the current key stops working';
const KEY_ROTATED = 'The signing key has been rotated';

/**
 * The client's callbacks: the URL that hears every state change of its messages, the URL that
 * hears every message received on its numbers (inbound), the key that signs both (X-Signature)
 * with "Rotate key" to replace it, and "Send test event" to try the status receiver now.
 */
export function StatusCallbackSection({
  client,
}: {
  client: Client & Partial<OwnClient>;
}) {
  const toast = useToast();
  const save = useSetStatusCallbackUrl();
  const test = useSendTestEvent();
  const rotate = useRotateSigningKey();
  const [confirmingRotate, setConfirmingRotate] = useState(false);
  const url = client.statusCallbackUrl ?? null;
  const inboundUrl = client.inboundCallbackUrl ?? null;
  const key = client.statusCallbackSigningKey ?? null;
  const form = useForm<
    z.input<typeof FormSchema>,
    unknown,
    z.output<typeof FormSchema>
  >({
    resolver: zodResolver(FormSchema),
    values: {
      statusCallbackUrl: url ?? '',
      inboundCallbackUrl: inboundUrl ?? '',
    },
  });
  const {
    register,
    handleSubmit,
    formState: { errors, dirtyFields },
  } = form;
  const saveError = useServerError(form, save.error, FIELD_LABELS);

  // Only the URLs the user changed are sent, so a save never puts back a URL changed meanwhile
  // elsewhere; a save with nothing changed sends both as they are.
  const onSubmit = handleSubmit(({ statusCallbackUrl, inboundCallbackUrl }) => {
    test.reset();
    const status = !!dirtyFields.statusCallbackUrl;
    const inbound = !!dirtyFields.inboundCallbackUrl;
    const both = status === inbound;
    save.mutate(
      {
        clientId: client.id,
        ...(status || both ? { statusCallbackUrl } : {}),
        ...(inbound || both ? { inboundCallbackUrl } : {}),
      },
      {
        onSuccess: () =>
          toast.show(savedText(status || both, inbound || both), {
            tone: 'success',
          }),
      },
    );
  });

  return (
    <SectionCard title="Status Callback" className="stack-sm">
      <p className="muted">
        Every state change of this client&apos;s messages is sent to the status
        callback URL as a signed POST. Leave it empty to stop.
      </p>
      {saveError ? <Alert tone="danger">{saveError}</Alert> : null}
      <form className="stack-sm" onSubmit={onSubmit} noValidate>
        <Field
          label="Status callback URL"
          error={errors.statusCallbackUrl?.message ?? ''}
          inputProps={{
            ...register('statusCallbackUrl'),
            type: 'url',
            placeholder: 'https://example.com/sms-status',
            autoComplete: 'off',
          }}
        />
        <Field
          label="Inbound callback URL"
          hint="Every message received on this client's numbers is sent here as a signed POST, with the same signing key. Leave it empty to stop."
          error={errors.inboundCallbackUrl?.message ?? ''}
          inputProps={{
            ...register('inboundCallbackUrl'),
            type: 'url',
            placeholder: 'https://example.com/sms-inbound',
            autoComplete: 'off',
          }}
        />
        <div className="form-actions-inline">
          <Button type="submit" variant="primary" pending={save.isPending}>
            Save
          </Button>
          {url ? (
            <Button
              pending={test.isPending}
              onClick={() => test.mutate(client.id)}
            >
              Send test event
            </Button>
          ) : null}
        </div>
      </form>
      {key ? (
        <div className="stack-sm">
          <SecretField
            label="Signing key"
            name="signing key"
            value={key}
            actions={
              <Button
                size="sm"
                variant="danger"
                pending={rotate.isPending}
                onClick={() => setConfirmingRotate(true)}
              >
                Rotate key
              </Button>
            }
          />
          {rotate.error ? (
            <Alert tone="danger">{errorText(rotate.error)}</Alert>
          ) : null}
        </div>
      ) : null}
      <ConfirmDialog
        open={confirmingRotate}
        destructive
        text={ROTATE_KEY_QUESTION}
        onCancel={() => setConfirmingRotate(false)}
        onConfirm={() => {
          setConfirmingRotate(false);
          rotate.mutate(client.id, {
            onSuccess: () => toast.show(KEY_ROTATED, { tone: 'success' }),
          });
        }}
      />
      {test.error ? <Alert tone="danger">{errorText(test.error)}</Alert> : null}
      {test.data ? (
        <Alert tone={test.data.ok ? 'success' : 'danger'} role="status">
          {callbackOutcome(test.data)}
        </Alert>
      ) : null}
    </SectionCard>
  );
}
