import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/limits';
import { Alert } from '../../../components/ui/alert';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataTable } from '../../../components/ui/data-table';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { useToast } from '../../../components/ui/toaster';
import { paths } from '../../../config/paths';
import { errorText } from '../../../lib/api-error';
import { formatDate, formatPhoneNumber } from '../../../lib/format';
import { useCanCall } from '../../../lib/permissions';
import { useAdminNumbers } from '../api/get-admin-numbers';
import { useNumberMutations } from '../api/save-number';
import type { PhoneNumber } from '../../../../shared/schemas/numbers';
import {
  NumberFilterSchema,
  numbersHref,
  type NumberFilter,
} from '../number-filter';
import { AssignNumberForm } from './assign-number-form';
import './numbers.css';
import '../../../components/ui/field.css';

export const NUMBER_RELEASED = 'The number has been released';

export const releaseQuestion = (number: PhoneNumber) =>
  `Are you sure you want to release ${formatPhoneNumber(number.number)}? Messages to it will no longer reach its client.`;

type Open = { kind: 'assign' } | { kind: 'edit'; number: PhoneNumber };

/**
 * Staff's inbound numbers (ROLE_NUMBER_ADMIN): every assigned number with its client, found by
 * part of the number or by client; assign one (or move it to another client), change its HELP
 * text, release it after a confirmation. Filters and page live in the URL.
 */
export function AdminNumbers({
  filter,
  offset,
  onFilter,
}: {
  filter: NumberFilter;
  offset: number;
  /** Shows the list with these filters, from its first page. */
  onFilter: (filter: NumberFilter) => void;
}) {
  const toast = useToast();
  const [open, setOpen] = useState<Open | null>(null);
  const [releasing, setReleasing] = useState<PhoneNumber | null>(null);
  const { release } = useNumberMutations();
  const close = () => setOpen(null);

  const onRelease = () => {
    if (!releasing) return;
    release.mutate(releasing.number, {
      onSuccess: () => {
        setReleasing(null);
        toast.show(NUMBER_RELEASED, { tone: 'success' });
      },
      onError: () => setReleasing(null),
    });
  };

  return (
    <>
      <PageHeader
        title="Numbers"
        description="Inbound numbers and their clients: messages to a number reach its client's Inbox."
        actions={
          <Button variant="primary" onClick={() => setOpen({ kind: 'assign' })}>
            Assign Number
          </Button>
        }
      />
      <div className="stack">
        {release.error ? (
          <Alert tone="danger" onDismiss={() => release.reset()}>
            {`The number could not be released: ${errorText(release.error)}`}
          </Alert>
        ) : null}
        {open?.kind === 'assign' ? (
          <AssignNumberForm clientId={filter.clientId} onDone={close} />
        ) : null}
        {open?.kind === 'edit' ? (
          <AssignNumberForm
            key={open.number.number}
            number={open.number}
            onDone={close}
          />
        ) : null}
        <NumberFilters value={filter} onApply={onFilter} />
        <NumberTable
          filter={filter}
          offset={offset}
          onEdit={(number) => setOpen({ kind: 'edit', number })}
          onRelease={setReleasing}
        />
      </div>
      <ConfirmDialog
        open={releasing !== null}
        text={releasing ? releaseQuestion(releasing) : ''}
        destructive
        pending={release.isPending}
        onConfirm={onRelease}
        onCancel={() => setReleasing(null)}
      />
    </>
  );
}

/** Part of a number and a client ID; Apply (or Enter) shows the list filtered. */
function NumberFilters({
  value,
  onApply,
}: {
  value: NumberFilter;
  onApply: (filter: NumberFilter) => void;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<NumberFilter>({
    resolver: zodResolver(NumberFilterSchema),
    values: value,
  });
  const filtered = value.q !== '' || value.clientId !== '';
  return (
    <form
      role="search"
      aria-label="Find numbers"
      className="card number-filters"
      noValidate
      onSubmit={handleSubmit(onApply)}
    >
      <Field
        label="Search numbers"
        hint="The start of a number, such as 4477, or words of its help text"
        error={errors.q?.message}
        inputProps={{
          ...register('q'),
          type: 'search',
          autoComplete: 'off',
        }}
      />
      <Field
        label="Client ID"
        hint="Only this client's numbers"
        error={errors.clientId?.message}
        inputProps={{
          ...register('clientId'),
          autoComplete: 'off',
          spellCheck: false,
          className: 'mono',
        }}
      />
      <div className="number-filter-actions">
        <Button type="submit">Apply</Button>
        {filtered ? (
          <Button onClick={() => onApply({ q: '', clientId: '' })}>
            Show all
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function NumberTable({
  filter,
  offset,
  onEdit,
  onRelease,
}: {
  filter: NumberFilter;
  offset: number;
  onEdit: (number: PhoneNumber) => void;
  onRelease: (number: PhoneNumber) => void;
}) {
  const numbers = useAdminNumbers({ ...filter, offset });
  const canViewClient = useCanCall({ family: 'CLIENT', verb: 'VIEW' });
  const filtered = filter.q !== '' || filter.clientId !== '';
  return (
    <DataTable
      query={numbers}
      rows={(data) => data.numbers}
      rowKey={(number) => number.number}
      columns={[
        {
          header: 'Number',
          label: null,
          className: 'tabular number-cell',
          cell: (number) => formatPhoneNumber(number.number),
        },
        {
          header: 'Client',
          // The id in monospace, not the phone card's "Client:" label before it.
          cell: (number) => (
            <span className="mono">
              {canViewClient ? (
                <Link to={paths.adminClient(number.clientId)}>
                  {number.clientId}
                </Link>
              ) : (
                number.clientId
              )}
            </span>
          ),
        },
        {
          header: 'Help text',
          cell: (number) =>
            number.helpText ?? <span className="muted">The default</span>,
        },
        {
          header: 'Assigned',
          className: 'nowrap',
          cell: (number) => formatDate(number.dateCreated),
        },
        {
          header: 'Actions',
          label: null,
          cell: (number) => {
            const shown = formatPhoneNumber(number.number);
            return (
              <div className="row">
                <Button
                  size="sm"
                  aria-label={`Edit ${shown}`}
                  onClick={() => onEdit(number)}
                >
                  Edit
                </Button>
                <Button
                  size="sm"
                  variant="danger"
                  aria-label={`Release ${shown}`}
                  onClick={() => onRelease(number)}
                >
                  Release
                </Button>
              </div>
            );
          },
        },
      ]}
      caption={(rows, data) =>
        `Numbers ${offset + 1} to ${offset + rows.length} of ${data.total}`
      }
      loadingLabel="Loading numbers"
      empty={
        offset > 0
          ? 'No numbers on this page.'
          : filtered
            ? 'No numbers match these filters.'
            : 'No numbers are assigned yet. Assign one to let a client receive messages.'
      }
      emptyAction={
        offset > 0 ? (
          <ButtonLink to={numbersHref(paths.adminNumbers, filter)}>
            First page
          </ButtonLink>
        ) : null
      }
      pager={{
        label: 'Numbers pages',
        offset,
        pageSize: DEFAULT_PAGE_SIZE,
        total: (data) => data.total,
        hrefFor: (to) => numbersHref(paths.adminNumbers, filter, to),
      }}
    />
  );
}
