import { useEffect, useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { useLocation } from 'react-router';

/**
 * A menu in the top navigation (the language and the account menus): a button that shows and hides a list of
 * links and buttons, in Bootstrap's dropdown look. It closes on a choice, on Escape (focus back on the button),
 * on a click or focus outside and on every page change. The disclosure pattern (a button with aria-expanded),
 * not a full ARIA menu: every item is an ordinary link or button that Tab reaches. A few lines instead of
 * React Bootstrap's dropdown and its positioning code, which every page would load (docs/decisions/024).
 */
export function NavMenu({ id, title, label, testId, children }: {
  id: string;
  title: ReactNode;
  label?: string;
  testId?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  const leave = (event: FocusEvent) => {
    if (event.relatedTarget && !root.current?.contains(event.relatedTarget as Node)) setOpen(false);
  };
  return (
    <div ref={root} className="nav-item dropdown" data-testid={testId} onBlur={leave}>
      <button
        ref={button} type="button" id={id} className={`nav-link dropdown-toggle w-100 text-start${open ? ' show' : ''}`}
        aria-expanded={open} aria-controls={`${id}-menu`} aria-label={label} onClick={() => setOpen((o) => !o)}
      >
        {title}
      </button>
      {/* data-bs-popper="static": Bootstrap's CSS aligns the menu to the button's end without positioning code. */}
      <div id={`${id}-menu`} className={`dropdown-menu dropdown-menu-end${open ? ' show' : ''}`} data-bs-popper="static" onClick={() => setOpen(false)}>
        {children}
      </div>
    </div>
  );
}
