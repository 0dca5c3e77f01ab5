import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type Path,
} from 'react-hook-form';
import type { z } from 'zod';
import { useServerError, type FieldLabels } from './server-errors';

/**
 * A form opened on purpose (Edit, Add): checked by the shared schema as the server checks it,
 * the keyboard's focus moved into it as it opens (the button that opened it is gone or
 * elsewhere), and the save's error shown in the form's words (useServerError).
 */
export function useEditForm<In extends FieldValues, Out>({
  schema,
  defaultValues,
  focus,
  selectOnFocus = false,
  error,
  labels,
}: {
  schema: z.ZodType<Out, In>;
  defaultValues: DefaultValues<In>;
  /** The field that takes the focus when the form opens. */
  focus: Path<In>;
  /** Select the focused field's text, for a value usually replaced as a whole. */
  selectOnFocus?: boolean;
  /** The save mutation's error. */
  error: unknown;
  labels: FieldLabels<In>;
}) {
  const form = useForm<In, unknown, Out>({
    resolver: zodResolver(schema),
    defaultValues,
  });
  const { setFocus } = form;
  useEffect(
    () => setFocus(focus, { shouldSelect: selectOnFocus }),
    [focus, selectOnFocus, setFocus],
  );
  const serverError = useServerError(form, error, labels);
  return { form, serverError };
}
