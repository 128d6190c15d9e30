// The colour fields of Site Settings and Home Page: a picker and the hex code side by side, bound
// to the form by name.
import type { Ref } from "react";
import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";
import { Field } from "../../components/ui/field.tsx";

/** A grid of colour fields, one for each `[name, label]`; ids are `{idPrefix}-{name}`. */
export function ColourFields<T extends FieldValues>({
  control,
  colours,
  idPrefix,
}: {
  control: Control<T>;
  colours: readonly (readonly [FieldPath<T>, string])[];
  idPrefix: string;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {colours.map(([key, label]) => (
        <Controller
          key={key}
          control={control}
          name={key}
          render={({ field, fieldState }) => (
            <ColourField
              id={`${idPrefix}-${key}`}
              label={label}
              value={field.value}
              error={fieldState.error?.message}
              onChange={field.onChange}
              inputRef={field.ref}
            />
          )}
        />
      ))}
    </div>
  );
}

function ColourField({
  id,
  label,
  value,
  error,
  onChange,
  inputRef,
}: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  /** Lets the form focus the field when it is wrong. */
  inputRef?: Ref<HTMLInputElement>;
}) {
  const valid = /^#[0-9a-fA-F]{6}$/.test(value);
  return (
    <Field id={id} label={label} error={error}>
      {(wiring) => (
        <div className="flex items-center gap-2">
          <input
            type="color"
            aria-label={`${label} picker`}
            value={valid ? value.toLowerCase() : "#000000"}
            onChange={(e) => onChange(e.target.value)}
            className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
          />
          <input
            ref={inputRef}
            {...wiring}
            value={value}
            maxLength={7}
            spellCheck={false}
            onChange={(e) => onChange(e.target.value.trim())}
            className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 font-mono text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-invalid:border-red-500"
          />
        </div>
      )}
    </Field>
  );
}
