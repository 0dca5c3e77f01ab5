/** `text` as a LIKE pattern matching it anywhere in lower case, its wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The search text as an id when it is one (a search by exact id), otherwise null. */
export function asId(text: string | undefined): string | null {
  return text && UUID.test(text) ? text : null;
}
