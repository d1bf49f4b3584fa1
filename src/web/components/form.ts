import type { FormErrors, LooseKeys, UseFormInput, UseFormReturnType } from '@mantine/form';
import { ApiError } from '../api/client';
import { confirmDiscard } from './confirm';

/*
 * What every form of the app needs around Mantine's `useForm`, whose values, touched, dirty and
 * error state it keeps; its rules come from the shared zod schema the server applies too
 * (`schemaResolver(schema, { sync: true })` of @mantine/form over src/shared/*.schemas.ts).
 */

/**
 * The field messages of a refused save (`ApiError.fields`), keyed by the form's own fields so
 * that `form.setErrors` shows each under its field. A body-schema error names the field under
 * its envelope ('crew.first_name'), a service rule names it bare ('foreman'); `formField` maps
 * a server field to the form field that shows it (work_packet_url → packet). Fields the form
 * does not have are left to the save's alert; the first message of a field wins.
 */
export function serverFieldErrors(err: unknown, fields: readonly string[], formField: (serverField: string) => string = (f) => f): FormErrors {
  const out: FormErrors = {};
  if (!(err instanceof ApiError)) return out;
  for (const [key, message] of Object.entries(err.fields)) {
    const field = [key, key.slice(key.indexOf('.') + 1)].map(formField).find((f) => fields.includes(f));
    if (field && !(field in out)) out[field] = message;
  }
  return out;
}

/** Closes a form at once when nothing changed; with changes, only once the person confirms losing them. */
export async function closeUnlessKept(dirty: boolean, close: () => void, note?: string): Promise<void> {
  if (!dirty || (await confirmDiscard(note))) close();
}

/**
 * `useForm` options for messages that appear once a field has been left (or the form submitted,
 * see `touchAll`) and from then on follow what is typed: nobody is told "required" before they
 * had a chance, and a fixed field clears at once. Mantine's touched status means "left" here
 * (set on blur, not on focus or change). Spread into `useForm({...})` and use `getInputProps`.
 */
export function errorsAfterLeaving<Values>(): Pick<UseFormInput<Values>, 'touchTrigger' | 'enhanceGetInputProps'> {
  return {
    touchTrigger: 'focus',
    enhanceGetInputProps: ({ inputProps, field, form }) => {
      // Mantine assigns what this returns onto `inputProps` itself: keep its own onChange first.
      const change = inputProps.onChange;
      return {
        onFocus: undefined,
        onBlur: () => {
          form.setTouched((t) => ({ ...t, [field]: true }));
          form.validateField(field);
        },
        onChange: (value: unknown) => {
          change(value);
          recheckShown(form, field);
        },
      };
    },
  };
}

/**
 * Checks a field again when it was left or shows a message (a server's too, which a change
 * replaces): after a change of its own, or of a field its rule depends on (role → foreman).
 */
export function recheckShown<Values>(form: UseFormReturnType<Values>, field: LooseKeys<Values>): void {
  if (form.isTouched(field) || form.errors[field] != null) form.validateField(field);
}

/** Marks every field as left (on submit), so that from then on each message follows its value. */
export function touchAll<Values extends object>(form: UseFormReturnType<Values>): void {
  form.setTouched(Object.fromEntries(Object.keys(form.getValues()).map((k) => [k, true])));
}

/**
 * An input's props (`form.getInputProps`) without its message, for the forms that say what is
 * wrong once, above their fields (Log In, Set your password), as docs/product/screens.md §2 words them.
 */
export function withoutError<P extends { error?: unknown }>({ error: _shownAbove, ...props }: P): Omit<P, 'error'> {
  return props;
}

/** The first message of a refused form, for such a form's one message above its fields. */
export const firstMessage = (errors: Record<string, unknown>) => String(Object.values(errors)[0]);
