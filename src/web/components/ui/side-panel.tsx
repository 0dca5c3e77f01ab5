import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { useModal, useOpenOnThisPage } from './overlay';
import './button.css';
import './overlay.css';
import './side-panel.css';

interface PanelState {
  shown: boolean;
  allowClosePanel: boolean;
  content: ReactNode;
  title: string;
}

interface PanelApi {
  /** Shows the panel with this content; closing is allowed unless told otherwise. */
  showPanel(
    content: ReactNode,
    options?: { allowClosePanel?: boolean; title?: string },
  ): void;
  /** Hides the panel and resets its content and allow-close flag (spec §4). */
  closePanel(): void;
  shown: boolean;
}

const CLOSED: PanelState = {
  shown: false,
  allowClosePanel: true,
  content: null,
  title: '',
};

const PanelContext = createContext<PanelApi | null>(null);

export function PanelProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<PanelState>(CLOSED);
  const closePanel = useCallback(() => setState(CLOSED), []);
  const showPanel = useCallback<PanelApi['showPanel']>(
    (content, options = {}) =>
      setState({
        shown: true,
        content,
        allowClosePanel: options.allowClosePanel ?? true,
        title: options.title ?? '',
      }),
    [],
  );
  // The panel is the page's, not the app's: navigating (Back included) closes it.
  const shown = useOpenOnThisPage(state.shown, closePanel);
  const api = useMemo(
    () => ({ showPanel, closePanel, shown }),
    [showPanel, closePanel, shown],
  );
  return (
    <PanelContext value={api}>
      {children}
      <SidePanel state={shown ? state : CLOSED} onClose={closePanel} />
    </PanelContext>
  );
}

export function usePanel(): PanelApi {
  const api = useContext(PanelContext);
  if (!api) throw new Error('usePanel needs a PanelProvider');
  return api;
}

function SidePanel({
  state,
  onClose,
}: {
  state: PanelState;
  onClose: () => void;
}) {
  const panel = useRef<HTMLElement>(null);
  const close = state.allowClosePanel ? onClose : undefined;
  useModal(state.shown, panel, { onEscape: close });
  if (!state.shown) return null;
  return createPortal(
    <div className="overlay" data-overlay-root="">
      <div className="overlay-backdrop" aria-hidden="true" onClick={close} />
      <aside
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-label={state.title || 'Side panel'}
        className="side-panel"
        tabIndex={-1}
      >
        <div className="side-panel-bar">
          <h2 className="side-panel-title">{state.title}</h2>
          {close ? (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={close}
            >
              <span className="btn-label">Close Panel</span>
            </button>
          ) : null}
        </div>
        <div className="side-panel-body">
          {state.content ?? (
            <p className="empty-text">
              Sorry, we do not have content here to show.
            </p>
          )}
        </div>
      </aside>
    </div>,
    document.body,
  );
}
