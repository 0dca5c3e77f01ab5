import { describe, expect, it } from 'vitest';
import { keywordOf } from './keywords.ts';

describe('keywordOf', () => {
  it('names the group of each keyword, trimmed and case-insensitive', () => {
    for (const word of [
      'STOP',
      'stopall',
      ' Unsubscribe ',
      'cancel',
      'END\n',
      'quit',
    ]) {
      expect(keywordOf(word)).toBe('STOP');
    }
    for (const word of ['START', 'yes', 'Unstop'])
      expect(keywordOf(word)).toBe('START');
    for (const word of ['HELP', ' info ']) expect(keywordOf(word)).toBe('HELP');
  });

  it('is null for anything else', () => {
    for (const body of [
      '',
      'stop please',
      'STOP!',
      'S T O P',
      'helpme',
      'x'.repeat(500),
    ]) {
      expect(keywordOf(body)).toBeNull();
    }
  });
});
