import { Button, type ButtonProps } from "./button.tsx";

/** A form's submit button: "Saving..." and disabled while `busy`; `children` is its label. */
export function SaveButton({ busy, disabled, children, ...props }: ButtonProps & { busy: boolean }) {
  return (
    <Button type="submit" disabled={busy || disabled} {...props}>
      {busy ? "Saving..." : children}
    </Button>
  );
}
