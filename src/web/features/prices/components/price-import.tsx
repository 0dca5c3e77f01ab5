import { useEffect, useId, useRef, useState } from 'react';
import {
  PRICE_CSV_HEADER,
  type PriceCsvEntry,
} from '../../../../shared/price-csv';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Table, type Column } from '../../../components/ui/data-table';
import { SectionCard } from '../../../components/ui/section-card';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { getPriceListCsv, useImportPriceListCsv } from '../api/price-list-csv';
import {
  checkPriceCsv,
  diffPriceLists,
  type PriceChange,
  type PriceListDiff,
} from '../price-csv';
import { PriceStatus } from './price-table';
import '../../../components/ui/field.css';

/** How many rows of each kind the preview lists; the count says how many there are. */
const PREVIEW_ROWS = 50;

interface Preview {
  fileName: string;
  csv: string;
  diff: PriceListDiff;
  bad: string[];
}

const entryText = (price: PriceCsvEntry) =>
  `${price.pricePerSegment}${price.blocked ? ', blocked' : ''}`;

const entryColumns: Column<PriceCsvEntry>[] = [
  {
    header: 'Prefix',
    cell: (price) => <span className="mono">{price.prefix}</span>,
  },
  { header: 'Destination', cell: (price) => price.name },
  {
    header: 'Price per segment',
    cell: (price) => price.pricePerSegment,
    numeric: true,
  },
  { header: 'Status', cell: (price) => <PriceStatus price={price} /> },
];

const changeColumns: Column<PriceChange>[] = [
  {
    header: 'Prefix',
    cell: ({ after }) => <span className="mono">{after.prefix}</span>,
  },
  {
    header: 'Before',
    cell: ({ before }) => `${before.name}: ${entryText(before)}`,
  },
  {
    header: 'After',
    cell: ({ after }) => `${after.name}: ${entryText(after)}`,
  },
];

function PreviewPart<Row>({
  title,
  rows,
  rowKey,
  columns,
}: {
  title: string;
  rows: Row[];
  rowKey: (row: Row) => string;
  columns: Column<Row>[];
}) {
  if (rows.length === 0) return null;
  const shown = rows.slice(0, PREVIEW_ROWS);
  return (
    <div className="stack-sm">
      <h3 className="subsection-title">{`${title} (${rows.length})`}</h3>
      <Table
        rows={shown}
        rowKey={rowKey}
        columns={columns}
        caption={`${title}: ${rows.length}`}
        card={false}
      />
      {rows.length > shown.length ? (
        <p className="muted">{`and ${rows.length - shown.length} more`}</p>
      ) : null}
    </div>
  );
}

/**
 * CSV import: the chosen file is read in the browser and compared with the list as it is (its
 * own export), so staff see what would be added, changed and removed, and every line the
 * import would refuse, before Apply replaces the whole list in one transaction.
 */
export function PriceImport({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const apply = useImportPriceListCsv();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);
  // Opened from the page header: the keyboard starts at the file to choose.
  useEffect(() => input.current?.focus(), []);

  const onFile = async (file: File | undefined) => {
    apply.reset();
    setPreview(null);
    setReadError(null);
    if (!file) return;
    setReading(true);
    try {
      const [csv, current] = await Promise.all([
        file.text(),
        getPriceListCsv(),
      ]);
      const checked = checkPriceCsv(csv);
      setPreview({
        fileName: file.name,
        csv,
        diff: diffPriceLists(checkPriceCsv(current).entries, checked.entries),
        bad: checked.bad,
      });
    } catch (error) {
      setReadError(`The file could not be compared: ${errorText(error)}`);
    } finally {
      setReading(false);
    }
  };

  const onApply = () => {
    if (!preview) return;
    apply.mutate(preview.csv, {
      onSuccess: ({ count }) => {
        toast.show(`The price list has been replaced: ${count} entries`, {
          tone: 'success',
        });
        onClose();
      },
    });
  };

  const diff = preview?.diff;
  const nothingChanges =
    diff && !diff.added.length && !diff.changed.length && !diff.removed.length;

  return (
    <SectionCard title="Import a price list" className="stack">
      <p className="muted">
        {`The file replaces the whole list. Its first line is the header ${PRICE_CSV_HEADER}; blocked is true or false.`}
      </p>
      <div className="field">
        <label className="field-label" htmlFor={inputId}>
          Price list CSV file
        </label>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          onChange={(event) => void onFile(event.target.files?.[0])}
        />
      </div>
      {reading ? (
        <p role="status" className="muted">
          Reading the file…
        </p>
      ) : null}
      {readError ? <Alert tone="danger">{readError}</Alert> : null}
      {preview && preview.bad.length ? (
        <div className="stack-sm" aria-label="Import preview" role="region">
          <Alert tone="danger">
            {`${preview.fileName} would be refused: fix ${preview.bad.length === 1 ? 'this line' : `these ${preview.bad.length} lines`} and choose the file again.`}
          </Alert>
          <ul className="bad-lines">
            {preview.bad.slice(0, PREVIEW_ROWS).map((bad) => (
              <li key={bad}>{bad}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {preview && diff && !preview.bad.length ? (
        <div className="stack" aria-label="Import preview" role="region">
          <p role="status">
            {`${preview.fileName}: ${diff.added.length} added, ${diff.changed.length} changed, ${diff.removed.length} removed, ${diff.unchanged} unchanged`}
          </p>
          <PreviewPart
            title="Added"
            rows={diff.added}
            rowKey={(price) => price.prefix}
            columns={entryColumns}
          />
          <PreviewPart
            title="Changed"
            rows={diff.changed}
            rowKey={(change) => change.after.prefix}
            columns={changeColumns}
          />
          <PreviewPart
            title="Removed"
            rows={diff.removed}
            rowKey={(price) => price.prefix}
            columns={entryColumns}
          />
          {nothingChanges ? (
            <p className="muted">The file holds the list as it is.</p>
          ) : null}
        </div>
      ) : null}
      {apply.error ? (
        <Alert tone="danger">{`The import was refused: ${errorText(apply.error)}`}</Alert>
      ) : null}
      <div className="form-actions-inline">
        <Button
          variant="primary"
          disabled={!preview || preview.bad.length > 0}
          pending={apply.isPending}
          onClick={onApply}
        >
          Apply Import
        </Button>
        <Button onClick={onClose} disabled={apply.isPending}>
          Cancel
        </Button>
      </div>
    </SectionCard>
  );
}
