// The fields every account screen asks for the same way: an email address and passwords.
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

/**
 * A required password: `current` lets the browser fill in the saved one, `new` lets it offer a
 * fresh one (and keep it).
 */
export function PasswordField({ kind, ...props }: FieldProps & { id: string; label: string; kind: "current" | "new" }) {
  return <Field type="password" autoComplete={`${kind}-password`} required {...props} />;
}

/** A new password, at least 8 characters (id `new-password`; the browser may offer one). */
export function NewPasswordField(props: FieldProps) {
  return <PasswordField id="new-password" label="New password" kind="new" minLength={8} {...props} />;
}
