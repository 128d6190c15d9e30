// The two fields every account screen asks for the same way: an email address and a new password.
import type { ComponentProps } from "react";
import { Field } from "./ui/field.tsx";

type FieldProps = Omit<ComponentProps<typeof Field>, "id" | "label" | "type" | "autoComplete">;

/** The sign-in, sign-up and reset screens' email (id `email`). */
export function EmailField(props: FieldProps) {
  return (
    <Field
      id="email"
      label="Email"
      type="email"
      autoComplete="email"
      required
      placeholder="you@example.com"
      {...props}
    />
  );
}

/** A new password, at least 8 characters (id `new-password`; the browser may offer one). */
export function NewPasswordField(props: FieldProps) {
  return (
    <Field
      id="new-password"
      label="New password"
      type="password"
      autoComplete="new-password"
      required
      minLength={8}
      {...props}
    />
  );
}
