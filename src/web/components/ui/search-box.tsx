import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Field } from './field';
import './search-box.css';

/** How long typing pauses before the list is asked again. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A list's search box. The query lives in the URL (`?q=`), so a search survives a reload, a
 * shared link and the Back button; typing replaces the entry rather than adding one per pause,
 * and a new query starts again at the first page.
 */
export function SearchBox({ label, hint }: { label: string; hint?: string }) {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [text, setText] = useState(q);
  // The URL changed under the box (Back, a link): show its query.
  const [shown, setShown] = useState(q);
  if (shown !== q) {
    setShown(q);
    setText(q);
  }

  useEffect(() => {
    const wanted = text.trim();
    if (wanted === q) return;
    const timer = setTimeout(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (wanted) next.set('q', wanted);
          else next.delete('q');
          next.delete('offset');
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, q, setParams]);

  return (
    <div role="search" aria-label={label} className="search-box">
      <Field
        label={label}
        hint={hint}
        inputProps={{
          type: 'search',
          value: text,
          onChange: (event) => setText(event.target.value),
          autoComplete: 'off',
          spellCheck: false,
        }}
      />
    </div>
  );
}
