/** The current value of a design token of styles/tokens.css (for canvas drawings), or `fallback`. */
export function designToken(name: string, fallback: string): string {
  return (
    getComputedStyle(document.documentElement).getPropertyValue(name).trim() ||
    fallback
  );
}
