import { useEffect, useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { errorText, isApiError } from './api-error';

/** The form's labels of the API's field names it sends ({statusCallbackUrl: 'Status callback URL'}). */
export type FieldLabels<T extends FieldValues> = Partial<
  Record<Path<T>, string>
>;

function escape(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where a server message names one of the form's fields: the API's name (`body.email`, or a
 * camelCase name such as `statusCallbackUrl`, which plain words never are), found as a word.
 */
function fieldPattern(name: string): RegExp {
  const prefix = /[A-Z]/.test(name) ? '(?:body\\.)?' : 'body\\.';
  return new RegExp(`(?<![\\w.])${prefix}${escape(name)}\\b`, 'g');
}

/**
 * A server message in the form's words: the first field it names (if any) and the message with
 * each API field name replaced by that field's label ("statusCallbackUrl must name a host" →
 * "Status callback URL must name a host").
 */
export function labelServerMessage<T extends FieldValues>(
  message: string,
  labels: FieldLabels<T>,
): { field: Path<T> | null; text: string } {
  let field: Path<T> | null = null;
  let text = message;
  for (const [name, label] of Object.entries(labels) as [Path<T>, string][]) {
    const labelled = text.replace(fieldPattern(name), label);
    if (labelled === text) continue;
    field ??= name;
    text = labelled;
  }
  return { field, text };
}

/**
 * Shows a failed call's error in the form's words. A 4xx naming one of the form's fields goes
 * under that field (as its error, labelled); any other is returned for the form's alert. Either
 * disappears as soon as the user changes a field, so a stale answer never sits beside new input.
 */
export function useServerError<T extends FieldValues>(
  form: Pick<
    UseFormReturn<T>,
    'setError' | 'clearErrors' | 'watch' | 'getFieldState'
  >,
  error: unknown,
  labels: FieldLabels<T>,
): string | null {
  const [stale, setStale] = useState<unknown>(null);
  const labelled =
    isApiError(error) && error.status >= 400 && error.status < 500
      ? labelServerMessage(error.message, labels)
      : null;
  const field = labelled?.field ?? null;
  const fieldText = labelled?.text ?? null;
  const { setError, clearErrors, watch, getFieldState } = form;

  useEffect(() => {
    if (field && fieldText) {
      setError(field, { type: 'server', message: fieldText });
    }
  }, [error, field, fieldText, setError]);

  useEffect(() => {
    const subscription = watch((_values, { name }) => {
      setStale(error);
      if (name && getFieldState(name).error?.type === 'server') {
        clearErrors(name);
      }
    });
    return () => subscription.unsubscribe();
  }, [error, watch, clearErrors, getFieldState]);

  if (!error || error === stale || field) return null;
  return labelled?.text ?? errorText(error);
}
