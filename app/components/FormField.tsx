/**
 * What a field takes from its Conform field (app/lib/forms.tsx useAppForm): the name, the value the
 * server echoed after a post without JavaScript, and the schema's errors.
 */
interface FieldState { name: string; initialValue?: unknown; errors?: string[] }

/** What a custom control receives: its id, name and value, required and invalid state, and what describes it. */
export interface ControlProps {
  id: string;
  name?: string;
  defaultValue?: string;
  required?: boolean;
  /** react-bootstrap's invalid style (`is-invalid`), for a control of the kit; a plain element leaves it out. */
  isInvalid: boolean;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

interface Common {
  /** The control's id: the label points at it, and the ids of its description and error are made from it. */
  id: string;
  label: React.ReactNode;
  labelClassName?: string;
  /** The Conform field the control stands for; forms that are no Conform form give `name` and `error` instead. */
  field?: FieldState;
  /** The error to show (a form the page checks itself); by default the field's first error. */
  error?: string | null;
  errorTestId?: string;
  /**
   * The id of the element that shows this field's error instead (the log-in form's message at its top, an
   * offer beside the address): the field is marked invalid and points there, and shows no message of its own.
   */
  errorShownIn?: string;
  /** Help text under the control, read out with it. */
  description?: React.ReactNode;
  descriptionProps?: { className?: string; as?: 'div'; 'data-testid'?: string };
  required?: boolean;
  /** The class of the field as a whole (margins, grid columns). */
  className?: string;
}

/** Set by the field itself. */
type Own = keyof Common | 'children' | 'as' | 'className';
type InputField = Common & { as?: 'input'; controlClassName?: string } & Omit<React.ComponentProps<'input'>, Own>;
type TextareaField = Common & { as: 'textarea'; controlClassName?: string } & Omit<React.ComponentProps<'textarea'>, Own>;
type SelectField = Common & { as: 'select'; controlClassName?: string; children: React.ReactNode } & Omit<React.ComponentProps<'select'>, Own>;
type CheckboxField = Common & { as: 'checkbox' } & Omit<React.ComponentProps<'input'>, Own | 'type'>;
/** Radios or check boxes that answer one question: a fieldset, its label the legend. */
type GroupField = Common & { as: 'group'; children: React.ReactNode };
/** Any other control (an input group, a control with a button beside it): it spreads the props it receives. */
type CustomField = Common & { as: 'custom'; children: (control: ControlProps) => React.ReactNode };

export type FormFieldProps = InputField | TextareaField | SelectField | CheckboxField | GroupField | CustomField;

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

const OWN: readonly string[] = [
  'id', 'label', 'labelClassName', 'field', 'error', 'errorTestId', 'errorShownIn', 'description', 'descriptionProps', 'required',
  'className', 'as', 'controlClassName', 'children',
] satisfies (keyof Common | 'as' | 'controlClassName' | 'children')[];

/** The props that belong to the control itself (type, autoComplete, value, onChange, data-testid …). */
function controlAttributes<P extends object>(props: P): Omit<P, keyof Common | 'as' | 'controlClassName' | 'children'> {
  return Object.fromEntries(Object.entries(props).filter(([key]) => !OWN.includes(key))) as Omit<P, keyof Common | 'as' | 'controlClassName' | 'children'>;
}

/**
 * One form field: label, control, help text and error, wired for assistive technology (`htmlFor`/`id`,
 * `aria-invalid`, `aria-describedby` naming the help text and the error, `required`). Every form uses it:
 * Conform forms pass `field`, forms the page checks itself `name` and `error`. The markup is Bootstrap's, in
 * plain elements (no script of the kit, so the lightest pages can use it), and a post without JavaScript comes
 * back with the same field and its error under it.
 */
export function FormField(props: FormFieldProps) {
  const { id, label, labelClassName, field, errorTestId, errorShownIn, description, descriptionProps, required, className } = props;
  const message = props.error !== undefined ? props.error : field?.errors?.[0];
  const invalid = Boolean(message);
  const errorId = errorShownIn ?? `${id}-error`;
  const descriptionId = `${id}-description`;
  const hasDescription = description !== undefined && description !== null && description !== false && description !== '';
  const describedBy = classes(hasDescription && descriptionId, invalid && errorId);
  const { as: Description = 'small', className: descriptionClass, ...descriptionRest } = descriptionProps ?? {};

  const below = (
    <>
      {hasDescription && <Description id={descriptionId} className={classes('form-text', descriptionClass)} {...descriptionRest}>{description}</Description>}
      {/* Bootstrap shows the message after an invalid control; `d-block` also where the control sits in a group. */}
      {invalid && !errorShownIn && <div className="invalid-feedback d-block" id={errorId} data-testid={errorTestId}>{message}</div>}
    </>
  );

  if (props.as === 'group') {
    return (
      <fieldset className={className} aria-describedby={describedBy}>
        <legend className={classes('form-label fs-6', labelClassName)}>{label}</legend>
        {props.children}
        {below}
      </fieldset>
    );
  }

  const aria = { 'aria-invalid': invalid ? (true as const) : undefined, 'aria-describedby': describedBy };
  if (props.as === 'checkbox') {
    const input = controlAttributes(props);
    return (
      <div className={classes('form-check', className)}>
        <input
          type="checkbox" id={id} name={field?.name} required={required} className={classes('form-check-input', invalid && 'is-invalid')} {...aria}
          defaultChecked={field && input.checked === undefined ? field.initialValue === 'on' : undefined} {...input}
        />
        <label htmlFor={id} className={classes('form-check-label', labelClassName)}>{label}</label>
        {below}
      </div>
    );
  }

  // The value the server echoed after a post without JavaScript, unless the page holds the value itself.
  const control = (controlled: boolean) => ({
    id, name: field?.name, required, ...aria,
    defaultValue: controlled || field?.initialValue === undefined ? undefined : String(field.initialValue),
  });
  const look = (base: string, extra: string | undefined) => classes(base, invalid && 'is-invalid', extra);
  const labelled = (node: React.ReactNode) => (
    <div className={className}>
      <label htmlFor={id} className={classes('form-label', labelClassName)}>{label}</label>
      {node}
      {below}
    </div>
  );

  switch (props.as) {
    case 'custom':
      return labelled(props.children({ ...control(false), isInvalid: invalid }));
    case 'select': {
      const select = controlAttributes(props);
      return labelled(<select {...control(select.value !== undefined)} className={look('form-select', props.controlClassName)} {...select}>{props.children}</select>);
    }
    case 'textarea': {
      const textarea = controlAttributes(props);
      return labelled(<textarea {...control(textarea.value !== undefined)} className={look('form-control', props.controlClassName)} {...textarea} />);
    }
    default: {
      const input = controlAttributes(props);
      return labelled(<input {...control(input.value !== undefined)} className={look('form-control', props.controlClassName)} {...input} />);
    }
  }
}
