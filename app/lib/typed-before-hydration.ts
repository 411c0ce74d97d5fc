/**
 * What a member typed, ticked or chose in a form before the page ran (the page is shown before its scripts start,
 * docs/decisions/045). React adopts such a field's value as it is in the page, but its state still holds the value
 * the server rendered: a text typed early would be shown and never sent, and a button that waits for text would
 * stay disabled. Once the page has hydrated, each field that differs from what the server rendered tells React
 * again, as if it had just been changed: React's value tracker is set back to the rendered value through the
 * element, the typed value put back past it, and the field's change event dispatched.
 */
export function replayTypedBeforeHydration(root: ParentNode = document): void {
  for (const field of root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>('input, textarea, select')) {
    if (field instanceof HTMLSelectElement) {
      if ([...field.options].some((option) => option.selected !== option.defaultSelected)) field.dispatchEvent(new Event('change', { bubbles: true }));
    } else if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
      // A radio button left is told by the one chosen in its group.
      if (field.checked === field.defaultChecked || (field.type === 'radio' && !field.checked)) continue;
      // The click that sets it back is the event React listens to for these.
      field.checked = !field.checked;
      field.click();
    } else if (!NOT_TYPED.has(field.type) && field.value !== field.defaultValue) {
      const typed = field.value;
      field.value = field.defaultValue;
      const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, typed);
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }
}

const NOT_TYPED = new Set(['hidden', 'file', 'submit', 'button', 'reset', 'image']);
