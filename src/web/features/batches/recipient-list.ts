import {
  cleanRecipient,
  isNationalNumber,
  isValidRecipient,
} from '../../../shared/recipient';
import { MAX_BATCH_RECIPIENTS } from '../../../shared/schemas/campaigns';

/** A line that cannot be sent to, with its number in the pasted text or the file (from 1). */
export interface BadLine {
  line: number;
  text: string;
  reason: string;
}

export interface RecipientList {
  /** Distinct recipients, cleaned as the send cleans them, in the order first seen. */
  recipients: string[];
  bad: BadLine[];
  /** Lines naming a recipient already listed above them. */
  duplicates: number;
  /** The first line was a header (a first column without digits) and was skipped. */
  header: boolean;
}

export const NOT_A_NUMBER = 'Not a phone number of 6 to 15 digits';
export const NATIONAL_NUMBER =
  'A national number (it begins with 0): give it with its country code';

/**
 * The first column of a CSV line: up to the first comma, semicolon or tab, without the
 * quotes a spreadsheet puts around it.
 */
function firstColumn(line: string): string {
  const cell = line.split(/[,;\t]/, 1)[0] ?? '';
  return cell
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .trim();
}

/**
 * Recipients from pasted numbers or an uploaded CSV or text file: one a line, the first
 * column counting; empty lines are skipped, a first line without any digit ("phone",
 * "Recipient") is a header. Each recipient is cleaned as the send cleans it (spec §5); a
 * number seen before is counted as a duplicate, sent once.
 */
export function parseRecipients(text: string): RecipientList {
  const lines = text.split(/\r\n|\r|\n/);
  const seen = new Set<string>();
  const result: RecipientList = {
    recipients: [],
    bad: [],
    duplicates: 0,
    header: false,
  };
  lines.forEach((raw, index) => {
    const cell = firstColumn(raw);
    if (cell === '') return;
    if (index === 0 && !/\d/.test(cell)) {
      result.header = true;
      return;
    }
    const recipient = cleanRecipient(cell);
    if (!isValidRecipient(recipient)) {
      result.bad.push({
        line: index + 1,
        text: cell,
        reason: isNationalNumber(recipient) ? NATIONAL_NUMBER : NOT_A_NUMBER,
      });
    } else if (seen.has(recipient)) {
      result.duplicates += 1;
    } else {
      seen.add(recipient);
      result.recipients.push(recipient);
    }
  });
  return result;
}

/** Why the list cannot be sent as it is, or null when it can. */
export function listProblem(list: RecipientList): string | null {
  if (list.bad.length > 0) {
    return list.bad.length === 1
      ? 'Fix or remove the bad line before sending.'
      : `Fix or remove the ${list.bad.length} bad lines before sending.`;
  }
  if (list.recipients.length === 0) return 'Add at least one recipient.';
  if (list.recipients.length > MAX_BATCH_RECIPIENTS) {
    return `At most ${MAX_BATCH_RECIPIENTS.toLocaleString('en')} recipients in one batch.`;
  }
  return null;
}
