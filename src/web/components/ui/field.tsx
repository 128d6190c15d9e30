import type { ComponentProps, ReactElement, ReactNode } from "react";
import { cloneElement, isValidElement, useId } from "react";
import { cn } from "../../lib/utils.ts";
import { Input } from "./input.tsx";
import { Label } from "./label.tsx";

/** What a field gives its control: its id and the screen-reader wiring to the hint and error. */
export type FieldWiring = {
  id: string;
  "aria-describedby": string | undefined;
  "aria-invalid": true | undefined;
};

type FieldFrame = {
  /** The control's id; a generated one when absent. */
  id?: string | undefined;
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  /**
   * A red asterisk after the label, outside it so the field's name stays exactly the label (the
   * control says `aria-required`; `required` itself goes to the input, as on any input).
   */
  requiredMark?: boolean | undefined;
  /** Beside the label, on the right (a character count). */
  aside?: ReactNode;
  /**
   * The content editors' way: the hint stays and the error is announced under it. Otherwise an
   * error takes the hint's place, quietly.
   */
  alert?: boolean | undefined;
  className?: string | undefined;
};

/**
 * One labelled control with its hint and error, wired for screen readers (the label's `for`, the
 * control's `aria-describedby` and `aria-invalid`). The control is the child element (a select, a
 * text box, the rich-text editor), given its id and wiring here; without a child it is an `Input`
 * taking the remaining props (`{...register("name")}`). A control inside a layout of its own takes
 * the wiring as a function instead (`{(wiring) => <div><Input {...wiring} /></div>}`).
 */
export function Field({
  id: givenId,
  label,
  hint,
  error,
  requiredMark,
  aside,
  alert,
  className,
  children,
  ...inputProps
}: FieldFrame &
  Omit<ComponentProps<"input">, "id" | "children"> & {
    children?: ReactElement<Partial<FieldWiring>> | ((wiring: FieldWiring) => ReactNode);
  }) {
  const generated = useId();
  const id = givenId ?? generated;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const shownHint = hint && (alert || !error) ? hint : null;
  const describedBy = [shownHint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  const wiring: FieldWiring = { id, "aria-describedby": describedBy, "aria-invalid": error ? true : undefined };
  const control =
    typeof children === "function" ? (
      children(wiring)
    ) : isValidElement(children) ? (
      // An aria-invalid the control sets itself stands (a form that rings a blank field it explains elsewhere).
      cloneElement(children, { ...wiring, "aria-invalid": children.props["aria-invalid"] ?? wiring["aria-invalid"] })
    ) : (
      <Input {...wiring} {...inputProps} />
    );
  return (
    <div className={cn("space-y-1.5", className)}>
      {requiredMark || aside ? (
        <div className={cn("flex items-baseline", aside ? "justify-between gap-3" : "gap-0.5")}>
          <Label htmlFor={id}>{label}</Label>
          {requiredMark && (
            <span className="text-sm font-medium text-red-600" aria-hidden="true">
              *
            </span>
          )}
          {aside}
        </div>
      ) : (
        <Label htmlFor={id}>{label}</Label>
      )}
      {control}
      {shownHint && (
        <p id={hintId} className="text-xs text-slate-500">
          {shownHint}
        </p>
      )}
      {error &&
        (alert ? (
          <p id={errorId} role="alert" className="text-xs font-medium text-red-600">
            {error}
          </p>
        ) : (
          <p id={errorId} className="text-sm text-red-700">
            {error}
          </p>
        ))}
    </div>
  );
}
