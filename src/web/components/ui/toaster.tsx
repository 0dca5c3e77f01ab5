import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { cx } from '../../lib/cx';
import type { Tone } from './alert';
import './button.css';
import './alert.css';
import './toaster.css';

interface Toast {
  id: number;
  text: string;
  tone: Tone;
  role: 'alert' | 'status';
}

interface ToastApi {
  /** Shows a message at the top right; the same text shown twice replaces the first. */
  show(
    text: string,
    options?: { tone?: Tone; role?: 'alert' | 'status' },
  ): void;
  dismiss(text: string): void;
}

const ToastContext = createContext<ToastApi | null>(null);
const TOAST_MS = 10_000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const remove = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((list) => list.filter((t) => t.id !== id));
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      show(text, options = {}) {
        const tone = options.tone ?? 'info';
        const role =
          options.role ??
          (tone === 'danger' || tone === 'warning' ? 'alert' : 'status');
        const id = nextId.current++;
        setToasts((list) => [
          ...list.filter((t) => t.text !== text),
          { id, text, tone, role },
        ]);
        timers.current.set(
          id,
          setTimeout(() => remove(id), TOAST_MS),
        );
      },
      dismiss(text) {
        setToasts((list) => list.filter((t) => t.text !== text));
      },
    }),
    [remove],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);

  return (
    <ToastContext value={api}>
      {children}
      <div className="toaster" data-overlay-exempt="">
        {toasts.map((toast) => (
          <div key={toast.id} className={cx('toast', `toast-${toast.tone}`)}>
            <div role={toast.role} className="toast-text">
              {toast.text}
            </div>
            <button
              type="button"
              className="icon-button"
              aria-label="Dismiss"
              onClick={() => remove(toast.id)}
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
        ))}
      </div>
    </ToastContext>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast needs a ToastProvider');
  return api;
}
