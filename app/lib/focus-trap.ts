import { useEffect, type RefObject } from 'react';

export const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * One Tab key press inside `root`: from its last control (or from outside it) to its first, and with Shift
 * from its first control (or the container itself) to its last; visible controls only.
 */
function keepTabInside(root: HTMLElement, e: KeyboardEvent) {
  const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  if (items.length === 0) return;
  const [first, last] = [items[0], items[items.length - 1]];
  const active = document.activeElement;
  const inside = root.contains(active);
  if (e.shiftKey && (active === first || active === root || !inside)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !inside)) {
    e.preventDefault();
    first.focus();
  }
}

/**
 * Keeps the keyboard inside an overlay of our own (react-bootstrap's Modal does this for its modals):
 * Tab and Shift+Tab cycle through the overlay's controls, and when it closes the focus goes back to
 * where it was before it opened (WCAG 2.4.3 focus order).
 */
export function useFocusTrap(container: RefObject<HTMLElement | null>, active = true) {
  useEffect(() => {
    if (!active) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onKey = (e: KeyboardEvent) => {
      const root = container.current;
      if (e.key === 'Tab' && !e.defaultPrevented && root) keepTabInside(root, e);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (previous?.isConnected) previous.focus();
    };
  }, [container, active]);
}

/**
 * Tab and Shift+Tab stay inside the topmost open modal dialog (`aria-modal="true"`: react-bootstrap's
 * modals and our overlays). react-bootstrap only pulls the focus back once it has left, and not at all
 * when it leaves the document; this keeps it in the dialog's controls. Installed once, in the root.
 */
export function useModalTabTrap() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Tab' || e.defaultPrevented) return;
      const dialogs = [...document.querySelectorAll<HTMLElement>('[aria-modal="true"]')].filter((el) => el.getClientRects().length > 0);
      const root = dialogs[dialogs.length - 1];
      if (root) keepTabInside(root, e);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
