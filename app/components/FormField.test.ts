import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FormField, type FormFieldProps } from './FormField.tsx';

const render = (props: FormFieldProps) => renderToStaticMarkup(createElement(FormField, props));
/** The attributes of the first element matching `tag` (and containing `marker`, when given). */
function attributes(html: string, tag: string, marker = ''): Record<string, string> {
  const element = html.match(new RegExp(`<${tag}\\b[^>]*${marker}[^>]*>`))?.[0];
  if (!element) throw new Error(`no <${tag}> in ${html}`);
  return Object.fromEntries([...element.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].slice(1).map(([, k, v]) => [k, v ?? '']));
}

describe('FormField', () => {
  it('labels its control, echoes the field\'s value and stays quiet while the field is valid', () => {
    const html = render({ id: 'login-email', label: 'E-mail', field: { name: 'email', initialValue: 'kim@example.org' }, type: 'email', required: true });
    expect(attributes(html, 'label')).toMatchObject({ for: 'login-email', class: 'form-label' });
    const input = attributes(html, 'input');
    expect(input).toMatchObject({ id: 'login-email', name: 'email', type: 'email', value: 'kim@example.org', required: '', class: 'form-control' });
    expect(input).not.toHaveProperty('aria-invalid');
    expect(input).not.toHaveProperty('aria-describedby');
    expect(html).not.toContain('invalid-feedback');
  });

  it('marks an invalid field and points at its help text and its error, in the order they are read', () => {
    const html = render({
      id: 'notice-content', label: 'Where', field: { name: 'content', errors: ['Say where it is.', 'second'] },
      description: 'A link or a member number.', errorTestId: 'notice-content-error', 'data-testid': 'notice-content',
    } as FormFieldProps);
    const input = attributes(html, 'input');
    expect(input).toMatchObject({ 'aria-invalid': 'true', 'aria-describedby': 'notice-content-description notice-content-error', 'data-testid': 'notice-content' });
    expect(input.class).toContain('is-invalid');
    expect(html).toContain('<small id="notice-content-description" class="form-text">A link or a member number.</small>');
    expect(html).toContain('<div class="invalid-feedback d-block" id="notice-content-error" data-testid="notice-content-error">Say where it is.</div>');
    // Help text, then the error: the help stays where it was when an error appears.
    expect(html.indexOf('notice-content-description')).toBeLessThan(html.indexOf('Say where it is.'));
  });

  it('takes an error from the page for forms that are no Conform form, and leaves a controlled value alone', () => {
    const html = render({ id: 'mf-max-age', label: 'To', as: 'select', error: 'The range is wrong.', value: '30', onChange: () => {}, children: createElement('option', { value: '30' }, '30') });
    const select = attributes(html, 'select');
    expect(select).toMatchObject({ id: 'mf-max-age', 'aria-invalid': 'true', 'aria-describedby': 'mf-max-age-error' });
    expect(select.class).toBe('form-select is-invalid');
    expect(html).toContain('<option value="30" selected="">30</option>');
    expect(html).toContain('>The range is wrong.</div>');
    // No error now: no message and no pointer to it.
    const valid = render({ id: 'mf-max-age', label: 'To', as: 'select', error: null, children: null });
    expect(attributes(valid, 'select')).not.toHaveProperty('aria-describedby');
    expect(valid).not.toContain('invalid-feedback');
  });

  it('points at the element that shows the error elsewhere and shows none of its own', () => {
    const html = render({ id: 'login-password', label: 'Password', field: { name: 'password', errors: ['Wrong.'] }, errorShownIn: 'login-error', type: 'password' });
    expect(attributes(html, 'input')).toMatchObject({ 'aria-invalid': 'true', 'aria-describedby': 'login-error' });
    expect(html).not.toContain('Wrong.');
    expect(html).not.toContain('invalid-feedback');
  });

  it('renders a check box with its label after it, checked as the server echoed it', () => {
    const html = render({ id: 'dd-mandate_consent', label: 'I agree', as: 'checkbox', field: { name: 'mandate_consent', initialValue: 'on', errors: ['Agree first.'] }, className: 'mb-2' });
    expect(html).toMatch(/^<div class="form-check mb-2"><input [^>]*><label for="dd-mandate_consent" class="form-check-label">I agree<\/label><div class="invalid-feedback d-block"/);
    expect(attributes(html, 'input')).toMatchObject({ type: 'checkbox', name: 'mandate_consent', checked: '', 'aria-invalid': 'true', 'aria-describedby': 'dd-mandate_consent-error' });
    expect(attributes(render({ id: 'c', label: 'x', as: 'checkbox', field: { name: 'c' } }), 'input')).not.toHaveProperty('checked');
  });

  it('groups radios under a legend and describes the group', () => {
    const radios: ReactNode = createElement('input', { type: 'radio', name: 'reason', value: 'other' });
    const html = render({ id: 'reasons', label: 'Why?', as: 'group', labelClassName: 'mb-3', description: 'Pick one.', children: radios });
    expect(html).toMatch(/^<fieldset aria-describedby="reasons-description"><legend class="form-label fs-6 mb-3">Why\?<\/legend><input type="radio"/);
  });

  it('gives a custom control the ids and states to spread', () => {
    const html = render({
      id: 'discount-code', label: 'Code', field: { name: 'discount', initialValue: 'SPRING', errors: ['Unknown code.'] }, as: 'custom',
      children: ({ isInvalid, ...control }) => createElement('span', { className: 'input-group' }, createElement('input', { ...control, 'data-invalid': String(isInvalid) })),
    });
    expect(attributes(html, 'input')).toMatchObject({
      id: 'discount-code', name: 'discount', value: 'SPRING', 'data-invalid': 'true', 'aria-invalid': 'true', 'aria-describedby': 'discount-code-error',
    });
    expect(html).toContain('<label for="discount-code" class="form-label">Code</label>');
  });
});
