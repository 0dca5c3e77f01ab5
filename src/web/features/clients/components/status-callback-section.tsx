import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import {
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

const FormSchema = z.object({ statusCallbackUrl: StatusCallbackUrlSchema });
const FIELD_LABELS = { statusCallbackUrl: 'Status callback URL' };

const ROTATE_KEY_QUESTION =
  'Are you sure you want to rotate the signing key? Callbacks are signed with the new key at once, and the current key stops working';
const KEY_ROTATED = 'The signing key has been rotated';

/**
 * The client's status callback: the URL that hears every state change of its messages, the
 * key that signs them (X-Signature) with "Rotate key" to replace it, and "Send test event" to
 * try the receiver now.
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
  const key = client.statusCallbackSigningKey ?? null;
  const form = useForm<
    z.input<typeof FormSchema>,
    unknown,
    z.output<typeof FormSchema>
  >({
    resolver: zodResolver(FormSchema),
    values: { statusCallbackUrl: url ?? '' },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = form;
  const saveError = useServerError(form, save.error, FIELD_LABELS);

  const onSubmit = handleSubmit(({ statusCallbackUrl }) => {
    test.reset();
    save.mutate(
      { clientId: client.id, statusCallbackUrl },
      {
        onSuccess: () =>
          toast.show('The status callback URL has been saved', {
            tone: 'success',
          }),
      },
    );
  });

  return (
    <SectionCard title="Status Callback" className="stack-sm">
      <p className="muted">
        Every state change of this client&apos;s messages is sent to this URL as
        a signed POST. Leave it empty to stop.
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
