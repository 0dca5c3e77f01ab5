import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import './clients.css';

/** Copies `value`; says 'Copied' (or that copying failed) beside the button for a moment. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [result, setResult] = useState<'copied' | 'failed' | null>(null);

  useEffect(() => {
    if (!result) return;
    const timer = setTimeout(() => setResult(null), 2500);
    return () => clearTimeout(timer);
  }, [result]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setResult('copied');
    } catch {
      setResult('failed');
    }
  }

  return (
    <span className="copy">
      <Button size="sm" onClick={() => void copy()}>
        {label}
      </Button>
      <span role="status" className="copy-result">
        {result === 'copied'
          ? 'Copied'
          : result === 'failed'
            ? 'Copy failed: select the text and copy it'
            : ''}
      </span>
    </span>
  );
}
