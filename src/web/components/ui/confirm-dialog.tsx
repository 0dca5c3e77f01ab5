import { useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button } from './button';
import { useModal, useOpenOnThisPage } from './overlay';
import './overlay.css';
import './confirm-dialog.css';

/**
 * A confirmation (CONTRACT.md): a modal `alertdialog` named by the spec's text, with `Cancel`
 * and `OK`. Escape cancels. A destructive OK is red and Cancel gets the first focus.
 * Navigating away (Back included) cancels it: the question was about the page left.
 */
export function ConfirmDialog({
  open,
  text,
  onConfirm,
  onCancel,
  destructive = false,
  pending = false,
  children,
}: {
  open: boolean;
  text: string;
  onConfirm: () => void;
  onCancel: () => void;
  destructive?: boolean;
  pending?: boolean;
  /** Options under the question (e.g. a grace period); the question itself stays the spec's. */
  children?: ReactNode;
}) {
  const textId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const ok = useRef<HTMLButtonElement>(null);
  const shown = useOpenOnThisPage(open, onCancel);
  useModal(shown, dialog, {
    onEscape: pending ? undefined : onCancel,
    initialFocus: destructive ? cancel : ok,
  });
  if (!shown) return null;
  return createPortal(
    <div className="overlay overlay-center" data-overlay-root="">
      <div className="overlay-backdrop" aria-hidden="true" />
      <div
        ref={dialog}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={textId}
        className="dialog"
      >
        <p id={textId} className="dialog-text">
          {text}
        </p>
        {children ? <div className="dialog-body">{children}</div> : null}
        <div className="dialog-actions">
          <Button ref={cancel} onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button
            ref={ok}
            variant={destructive ? 'danger' : 'primary'}
            onClick={onConfirm}
            pending={pending}
          >
            OK
          </Button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
