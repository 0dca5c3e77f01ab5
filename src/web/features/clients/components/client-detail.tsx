import { useState, type ReactNode } from 'react';
import type {
  Client,
  ClientKeyUsage,
} from '../../../../shared/schemas/clients';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EditableCard } from '../../../components/ui/editable-card';
import { SelectBox } from '../../../components/ui/select-box';
import { SectionCard } from '../../../components/ui/section-card';
import { usePanel } from '../../../components/ui/side-panel';
import { Skeleton } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toaster';
import { errorText, isApiError } from '../../../lib/api-error';
import { useDeleteClient } from '../api/delete-client';
import { useClient } from '../api/get-client';
import { useResetSecret } from '../api/reset-secret';
import {
  formatDate,
  formatDateTime,
  formatLastUsed,
} from '../../../lib/format';
import { ClientNameForm } from './client-name-form';
import { ClientSecret } from './client-secret';
import { ClientLimitsCard } from './client-limits-card';
import { StatusCallbackSection } from './status-callback-section';

const RESET_SECRET_QUESTION =
  'Are you sure you want to reset the secret? The existing secret will no longer be usable';
const DELETE_CLIENT_QUESTION =
  'Are you sure you want to permanently delete the client?';
const CLIENT_DELETED = 'The client has been deleted';

/** How long the replaced secret may keep working; none is the spec's flow and the default. */
export const GRACE_OPTIONS = [
  { seconds: 0, text: 'No grace period' },
  { seconds: 3_600, text: '1 hour' },
  { seconds: 86_400, text: '24 hours' },
  { seconds: 604_800, text: '7 days' },
] as const;

/** When a grace period chosen now ends, as the console shows a date and time. */
function graceEnd(graceSeconds: number): string {
  return formatDateTime(
    new Date(Date.now() + graceSeconds * 1000).toISOString(),
  );
}

/**
 * /clients/{id}: the card (click to rename), Reset Secret and Delete Client (spec §2, §4).
 * `sections` (another feature's, such as its numbers) show once the client is known, before
 * the secret and the deletion.
 */
export function ClientDetail({
  clientId,
  onDeleted,
  sections,
}: {
  clientId: string;
  onDeleted: () => void;
  sections?: ReactNode;
}) {
  const client = useClient(clientId);

  if (client.isPending) {
    return (
      <div className="stack">
        <Skeleton height="120px" />
        <Skeleton height="96px" />
      </div>
    );
  }
  if (client.isError) {
    return (
      <Alert tone="danger">
        {isApiError(client.error, 404)
          ? 'This client does not exist or has been deleted.'
          : errorText(client.error)}
      </Alert>
    );
  }
  return (
    <div className="stack">
      <ClientNameCard client={client.data} />
      <ClientLimitsCard client={client.data} />
      <StatusCallbackSection client={client.data} />
      {sections}
      <ResetSecretSection client={client.data} />
      <DeleteClientSection client={client.data} onDeleted={onDeleted} />
    </div>
  );
}

function ClientNameCard({
  client,
}: {
  client: Client & Partial<ClientKeyUsage>;
}) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <ClientNameForm
        client={client}
        className="card"
        onDone={() => setEditing(false)}
      />
    );
  }
  return (
    <EditableCard
      label={`${client.name}: edit the name`}
      title={<span className="card-title">{client.name}</span>}
      hint="Click to edit"
      details={[
        ['Client ID', client.id, true],
        ['Created', formatDate(client.dateCreated)],
        ['Updated', formatDate(client.dateUpdated)],
        ['Secret last used', formatLastUsed(client.secretLastUsedAt)],
      ]}
      onEdit={() => setEditing(true)}
    />
  );
}

function ResetSecretSection({ client }: { client: Client }) {
  const [confirming, setConfirming] = useState(false);
  const [graceSeconds, setGraceSeconds] = useState(0);
  const [graceUntil, setGraceUntil] = useState<string | null>(null);
  const reset = useResetSecret();
  const panel = usePanel();

  return (
    <SectionCard title="Reset Secret" className="stack-sm">
      <p className="muted">
        Issue a new secret for this client. Systems using the current secret
        stop working until they use the new one, unless you give them a grace
        period.
      </p>
      {reset.error ? (
        <Alert tone="danger">{errorText(reset.error)}</Alert>
      ) : null}
      {graceUntil ? (
        <Alert tone="info" role="status">
          The previous secret keeps working until {graceUntil}.
        </Alert>
      ) : null}
      <div>
        <Button
          variant="danger"
          pending={reset.isPending}
          onClick={() => {
            setGraceSeconds(0);
            setConfirming(true);
          }}
        >
          Reset Secret
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        destructive
        text={RESET_SECRET_QUESTION}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          setGraceUntil(null);
          reset.mutate(
            { clientId: client.id, graceSeconds },
            {
              onSuccess: (withSecret) => {
                if (graceSeconds > 0) setGraceUntil(graceEnd(graceSeconds));
                panel.showPanel(<ClientSecret client={withSecret} />, {
                  title: 'New secret',
                });
              },
            },
          );
        }}
      >
        <SelectBox
          label="Keep the old secret working for"
          options={GRACE_OPTIONS.map((option) => ({
            key: String(option.seconds),
            text: option.text,
          }))}
          value={String(graceSeconds)}
          onChange={(key) => setGraceSeconds(Number(key))}
        />
        {graceSeconds > 0 ? (
          <p className="muted" role="status">
            With this grace period, the old secret keeps working until{' '}
            {graceEnd(graceSeconds)}.
          </p>
        ) : null}
      </ConfirmDialog>
    </SectionCard>
  );
}

function DeleteClientSection({
  client,
  onDeleted,
}: {
  client: Client;
  onDeleted: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const removal = useDeleteClient();
  const toast = useToast();

  return (
    <SectionCard title="Delete Client" className="stack-sm">
      <p className="muted">
        Delete this client and its balance. This cannot be undone.
      </p>
      {removal.error ? (
        <Alert tone="danger">{errorText(removal.error)}</Alert>
      ) : null}
      <div>
        <Button
          variant="danger"
          pending={removal.isPending}
          onClick={() => setConfirming(true)}
        >
          Delete Client
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        destructive
        text={DELETE_CLIENT_QUESTION}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          removal.mutate(client.id, {
            onSuccess: () => {
              toast.show(CLIENT_DELETED, { tone: 'success' });
              onDeleted();
            },
          });
        }}
      />
    </SectionCard>
  );
}
