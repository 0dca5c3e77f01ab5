import { describe, expect, it } from 'vitest';
import { MAX_BATCH_RECIPIENTS } from '../../../shared/schemas/campaigns';
import {
  listProblem,
  NATIONAL_NUMBER,
  NOT_A_NUMBER,
  parseRecipients,
} from './recipient-list';

describe('parseRecipients', () => {
  it('reads the first column of a CSV, skips its header, cleans numbers and removes duplicates', () => {
    const list = parseRecipients(
      [
        'phone,name',
        '"+44 7700 900123",Ada',
        '33-6-12-34-56-78;Bea',
        '',
        '447700900123,Ada again',
        'call me\tCid',
        '12',
        '+33 6 12 34 56 78',
      ].join('\r\n'),
    );
    expect(list.header).toBe(true);
    expect(list.recipients).toEqual(['447700900123', '33612345678']);
    expect(list.duplicates).toBe(2);
    // Line numbers count every line of the text, the header and empty ones included.
    expect(list.bad).toEqual([
      { line: 6, text: 'call me', reason: NOT_A_NUMBER },
      { line: 7, text: '12', reason: NOT_A_NUMBER },
    ]);
  });

  it('drops a leading 00, counts 0033… and 33… as one, and names a national number', () => {
    const list = parseRecipients(
      [
        '0033612345678',
        '33612345678',
        '+00 44 7911 123456',
        '07911123456',
      ].join('\n'),
    );
    expect(list.recipients).toEqual(['33612345678', '447911123456']);
    expect(list.duplicates).toBe(1);
    expect(list.bad).toEqual([
      { line: 4, text: '07911123456', reason: NATIONAL_NUMBER },
    ]);
  });

  it('takes a first line with digits as a recipient, not a header', () => {
    const list = parseRecipients('447700900123\n447700900124\n');
    expect(list.header).toBe(false);
    expect(list.recipients).toEqual(['447700900123', '447700900124']);
    expect(list.bad).toEqual([]);
  });
});

describe('listProblem', () => {
  it('refuses bad lines, an empty list and more than the batch limit', () => {
    expect(listProblem(parseRecipients('447700900123\nabc1'))).toBe(
      'Fix or remove the bad line before sending.',
    );
    expect(listProblem(parseRecipients('x1\ny2\n447700900123'))).toBe(
      'Fix or remove the 2 bad lines before sending.',
    );
    expect(listProblem(parseRecipients('phone\n\n'))).toBe(
      'Add at least one recipient.',
    );
    const many = Array.from(
      { length: MAX_BATCH_RECIPIENTS + 1 },
      (_, i) => `4477${String(i).padStart(8, '0')}`,
    ).join('\n');
    expect(listProblem(parseRecipients(many))).toBe(
      'At most 10,000 recipients in one batch.',
    );
    expect(listProblem(parseRecipients('447700900123'))).toBeNull();
  });
});
