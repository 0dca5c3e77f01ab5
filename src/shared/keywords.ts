/**
 * The opt-out keywords of an inbound message (CONTRACT "Two-way messaging": Opt-outs). A body
 * that is, trimmed and case-insensitive, one of these words names its group: `STOP` opts the
 * sender out of the client's messages, `START` opts back in, `HELP` asks for help. One list for
 * the server (the inbound writer stores the group in `keyword`) and the console.
 */
export const KEYWORD_GROUPS = {
  STOP: ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'],
  START: ['START', 'YES', 'UNSTOP'],
  HELP: ['HELP', 'INFO'],
} as const;

export type Keyword = keyof typeof KEYWORD_GROUPS;

const GROUP_OF_WORD = new Map<string, Keyword>(
  (Object.entries(KEYWORD_GROUPS) as [Keyword, readonly string[]][]).flatMap(
    ([group, words]) => words.map((word) => [word, group] as const),
  ),
);

/** The keyword group a body is, or null when it is anything else (`stop please` is not). */
export function keywordOf(body: string): Keyword | null {
  const word = body.trim();
  // The longest keyword has 11 letters: skip upper-casing a long body.
  if (word.length > 11) return null;
  return GROUP_OF_WORD.get(word.toUpperCase()) ?? null;
}
