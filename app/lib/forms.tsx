import { useEffect } from 'react';
import { useForm, type FormMetadata, type Submission, type SubmissionResult } from '@conform-to/react';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from './i18n.ts';
import { Form, useActionData, useNavigation, type FetcherWithComponents } from 'react-router';
import type { z } from 'zod';
import { parseForm } from '#common/forms.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- fields are looked up by name; the schema checks the values
type Values = Record<string, any>;

/** What a page action answers (server/http/forms.server.ts FormReply), as the page receives it. */
interface Reply { intent?: string; result: SubmissionResult<string[]>; ok?: true; done?: unknown; code?: string }

/**
 * The one form pattern (docs/decisions/033): a React Router `<Form method="post">` whose action
 * parses the same zod schema from common/ that the JSON endpoint checks. In the browser Conform
 * checks that schema before sending; the server's answer puts its errors beside their fields.
 * Without JavaScript the form posts as any HTML form and the page comes back with the errors.
 *
 * `intent` names the form on a page with several; only that form takes the action's answer.
 */
export function useAppForm<S extends z.ZodType>(schema: S, options: {
  intent?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Conform's default values follow the schema's input
  defaultValue?: Record<string, any>;
  /** The action's answer when the page reads it itself; by default the route's action data. */
  reply?: Reply;
  /**
   * A form that posts through this fetcher (to another route's action, or without leaving the
   * page): its answer and busy state are the fetcher's. Without JavaScript it posts as any form.
   */
  fetcher?: FetcherWithComponents<unknown>;
} = {}) {
  const { t } = useTranslation();
  const actionData = useActionData() as Reply | undefined;
  const reply = options.reply ?? (options.fetcher?.data as Reply | undefined) ?? actionData;
  const mine = reply && (reply.intent ?? '') === (options.intent ?? '') ? reply : undefined;
  const navigation = useNavigation();
  const [form, fields] = useForm<Values>({
    id: options.intent ? `form-${options.intent}` : undefined,
    lastResult: mine?.result,
    defaultValue: options.defaultValue,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, schema, (key, params) => t(key, params)) as Submission<Values>,
  });
  // A refusal may land above or below the screen (the form's error sits at its top; on a phone the member scrolled down
  // to send): the first error is brought into view and takes the focus, so it is seen and read out.
  useEffect(() => {
    if (!mine || mine.ok) return;
    const formElement = document.getElementById(form.id);
    const first = formElement?.querySelector<HTMLElement>(`[aria-invalid="true"], #${CSS.escape(form.errorId)}`)
      ?? document.getElementById(form.errorId);
    if (!first) return;
    first.scrollIntoView({ block: 'center', behavior: 'auto' });
    first.focus({ preventScroll: true });
  }, [mine, form.id, form.errorId]);
  const sending = navigation.formData;
  const busy = options.fetcher
    ? options.fetcher.state !== 'idle'
    : Boolean(sending) && (options.intent === undefined || sending?.get('intent') === options.intent);
  return {
    form, fields, busy,
    /** The answer of a successful send, for the page to show (e.g. "the link is on its way"). */
    done: mine?.ok ? (mine.done ?? true) : undefined,
    /** The code of the rule the server refused the last send with. */
    errorCode: mine?.code,
  };
}

/**
 * The `<Form>` of useAppForm: posts to the route's action (or `action`), with the form's `intent`
 * when it has one; through `fetcher` when given, which keeps the page where it is. `revalidate`
 * false leaves the page's data as it was after the answer (a sign-up that continues in place).
 */
export function AppForm({ form, intent, children, fetcher, revalidate, ...rest }: {
  form: FormMetadata<Values>; intent?: string; children?: React.ReactNode; className?: string; 'data-testid'?: string;
  action?: string; fetcher?: FetcherWithComponents<unknown>; revalidate?: boolean; onInput?: React.FormEventHandler<HTMLFormElement>;
  /** `multipart/form-data` for a form that uploads a file beside its fields. */
  encType?: 'multipart/form-data';
}) {
  const Component = fetcher ? fetcher.Form : Form;
  return (
    // The answer renders the same page: it stays where the member was (a switch far down the settings).
    <Component method="post" id={form.id} onSubmit={form.onSubmit} noValidate preventScrollReset defaultShouldRevalidate={revalidate} {...rest}>
      {intent && <input type="hidden" name="intent" value={intent} />}
      {children}
    </Component>
  );
}

/** The error of the form as a whole (wrong password, a limit reached, a link that expired). */
export function FormError({ form, testId, className }: { form: FormMetadata<Values>; testId?: string; className?: string }) {
  if (!form.errors?.length) return null;
  // Focusable, so that a refusal can take the focus (useAppForm).
  return <Alert variant="danger" id={form.errorId} className={className} data-testid={testId} tabIndex={-1}>{form.errors[0]}</Alert>;
}
