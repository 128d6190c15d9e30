import { ChevronDown, ChevronUp, Trash2 } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "../../lib/utils.ts";
import { Button } from "./button.tsx";
import { controlClass } from "./input.tsx";

/** A control of an editor's row (or of the form adding one) under its small label ("Year 2"). */
export function RowField(props: {
  id: string;
  label: ReactNode;
  /** The label is for assistive tech only (the row's layout says what the box is). */
  hideLabel?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn(props.className, "space-y-1")}>
      <label htmlFor={props.id} className={props.hideLabel ? "sr-only" : "block text-xs font-medium text-slate-600"}>
        {props.label}
      </label>
      {props.children}
    </div>
  );
}

/**
 * A row's labelled text box: `RowField` around an editor-sized input of the same id; the rest of
 * the props (`register(…)`, `aria-invalid`, `placeholder`) go to the input.
 */
export function RowInput({
  id,
  label,
  hideLabel,
  className,
  ...input
}: { id: string; label: ReactNode; hideLabel?: boolean; className?: string } & Omit<ComponentProps<"input">, "id">) {
  return (
    <RowField id={id} label={label} hideLabel={hideLabel} className={className}>
      <input id={id} className={controlClass("editor")} {...input} />
    </RowField>
  );
}

/** What is wrong with a row (its first error) or with the list, announced when it appears. */
export function RowError({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <p role="alert" className={cn(className, "text-xs font-medium text-red-600")}>
      {children}
    </p>
  );
}

/** The editors' small up or down arrow button; `label` is its name ("Move retailer 2 up"). */
export function MoveButton({
  direction,
  label,
  disabled,
  onClick,
}: {
  direction: "up" | "down";
  label: string;
  disabled: boolean;
  onClick: () => void;
}) {
  const Icon = direction === "up" ? ChevronUp : ChevronDown;
  return (
    <Button look="editor" variant="ghost" size="icon" aria-label={label} disabled={disabled} onClick={onClick}>
      <Icon className="h-4 w-4" aria-hidden="true" />
    </Button>
  );
}

/** Up, down and remove for one row of an ordered list in an editor ("Move retailer 2 up"…). */
export function RowControls(props: {
  /** What a row is, for the buttons' names: "retailer", "milestone". */
  what: string;
  index: number;
  count: number;
  move: (from: number, to: number) => void;
  remove: (index: number) => void;
}) {
  const { what, index: i, count } = props;
  const n = i + 1;
  return (
    <div className="flex items-center">
      <MoveButton
        direction="up"
        label={`Move ${what} ${n} up`}
        disabled={i === 0}
        onClick={() => props.move(i, i - 1)}
      />
      <MoveButton
        direction="down"
        label={`Move ${what} ${n} down`}
        disabled={i === count - 1}
        onClick={() => props.move(i, i + 1)}
      />
      <Button
        look="editor"
        variant="dangerGhost"
        size="icon"
        aria-label={`Remove ${what} ${n}`}
        onClick={() => props.remove(i)}
      >
        <Trash2 className="h-4 w-4" aria-hidden="true" />
      </Button>
    </div>
  );
}
