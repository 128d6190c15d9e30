// The one way a screen holds a form: react-hook-form checked by the same zod schema the server
// uses (src/shared/schemas), so the browser and the API give the same message for the same
// mistake. Errors show on submit and go away as soon as the field they name is edited; the
// next submit checks again (the screens behaved so before react-hook-form, and authors expect
// a red field not to argue with them while they type).
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { type DefaultValues, type FieldValues, type Path, type UseFormReturn, useForm } from "react-hook-form";
import type { z } from "zod";
import { ApiError } from "./api.ts";

export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  defaultValues: DefaultValues<z.input<S>>,
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: "onSubmit",
    reValidateMode: "onSubmit",
  });
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (!name) return;
      form.clearErrors(name);
      // A row of a list (socialLinks.3.enabled) clears the whole row's errors: its url error
      // is about the row, not just the one input.
      const row = name.match(/^(.*\.\d+)\./);
      if (row?.[1]) form.clearErrors(row[1] as Path<z.input<S>>);
    });
    return () => subscription.unsubscribe();
  }, [form]);
  return form;
}

/** A server refusal that names a field is shown under that field; true when it did. */
export function setServerFieldError<T extends FieldValues>(
  form: Pick<UseFormReturn<T, unknown, unknown>, "setError">,
  err: unknown,
): boolean {
  if (!(err instanceof ApiError) || !err.field) return false;
  form.setError(err.field as Path<T>, { type: "server", message: err.message });
  return true;
}
