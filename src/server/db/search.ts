/** `text` with LIKE's wildcards (and its escape) taken literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `text` as a LIKE pattern matching it anywhere in lower case, its wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${likeLiteral(text.toLowerCase())}%`;
}

/** `text` as a LIKE pattern matching what starts with it, its wildcards taken literally. */
export function startsPattern(text: string): string {
  return `${likeLiteral(text)}%`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The search text as an id when it is one (a search by exact id), otherwise null. */
export function asId(text: string | undefined): string | null {
  return text && UUID.test(text) ? text : null;
}
