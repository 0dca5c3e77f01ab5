import { useState } from 'react';
import type { Price } from '../../../../shared/schemas/prices';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PageHeader } from '../../../components/ui/page-header';
import { SearchBox } from '../../../components/ui/search-box';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { useDownloadPriceListCsv } from '../api/price-list-csv';
import { usePriceMutations } from '../api/save-price';
import { AdminPriceForm } from './admin-price-form';
import { PriceImport } from './price-import';
import { PriceTable } from './price-table';

export const PRICE_DELETED = 'The price has been deleted';

export const deleteQuestion = (price: Price) =>
  `Are you sure you want to delete the price of ${price.prefix} (${price.name})? Its destination will cost the default price.`;

type Open =
  { kind: 'add' } | { kind: 'edit'; price: Price } | { kind: 'import' };

/**
 * Staff's price list (ROLE_PRICE_ADMIN): search, add, edit and delete entries, and the whole
 * list as CSV, exported or imported with a preview of what changes.
 */
export function AdminPrices({
  path,
  q,
  offset,
}: {
  path: string;
  q: string;
  offset: number;
}) {
  const toast = useToast();
  const [open, setOpen] = useState<Open | null>(null);
  const [deleting, setDeleting] = useState<Price | null>(null);
  const download = useDownloadPriceListCsv();
  const { remove } = usePriceMutations();
  const close = () => setOpen(null);

  const onDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.prefix, {
      onSuccess: () => {
        setDeleting(null);
        toast.show(PRICE_DELETED, { tone: 'success' });
      },
      onError: () => setDeleting(null),
    });
  };

  return (
    <>
      <PageHeader
        title="Prices"
        description="The price of a segment by destination prefix: the longest matching prefix wins, blocked ones are closed to every client."
        actions={
          <div className="price-actions">
            <Button
              pending={download.isPending}
              onClick={() => download.mutate()}
            >
              Export CSV
            </Button>
            <Button onClick={() => setOpen({ kind: 'import' })}>
              Import CSV
            </Button>
            <Button variant="primary" onClick={() => setOpen({ kind: 'add' })}>
              Add Price
            </Button>
          </div>
        }
      />
      {download.error ? (
        <Alert tone="danger" onDismiss={() => download.reset()}>
          {`The price list could not be exported: ${errorText(download.error)}`}
        </Alert>
      ) : null}
      {remove.error ? (
        <Alert tone="danger" onDismiss={() => remove.reset()}>
          {`The price could not be deleted: ${errorText(remove.error)}`}
        </Alert>
      ) : null}
      {open?.kind === 'import' ? <PriceImport onClose={close} /> : null}
      {open?.kind === 'add' ? <AdminPriceForm onDone={close} /> : null}
      {open?.kind === 'edit' ? (
        <AdminPriceForm
          key={open.price.prefix}
          price={open.price}
          onDone={close}
        />
      ) : null}
      <SearchBox
        label="Search prices"
        hint="A prefix such as 44, or part of a destination's name"
      />
      <PriceTable
        path={path}
        q={q}
        offset={offset}
        actions={{
          header: 'Actions',
          label: null,
          cell: (price) => (
            <div className="price-actions">
              <Button
                size="sm"
                aria-label={`Edit the price of ${price.prefix}`}
                onClick={() => setOpen({ kind: 'edit', price })}
              >
                Edit
              </Button>
              <Button
                size="sm"
                variant="danger"
                aria-label={`Delete the price of ${price.prefix}`}
                onClick={() => setDeleting(price)}
              >
                Delete
              </Button>
            </div>
          ),
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        text={deleting ? deleteQuestion(deleting) : ''}
        destructive
        pending={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}
