import type { ComponentProps } from "react";
import { cn } from "../../lib/utils.ts";

// The same two looks as Button: "standard" for account and settings screens, "editor" for the
// content editors. `controlClass` is for controls that are not an Input (select, textarea).
const looks = {
  standard: cn(
    "block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm",
    "placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30",
    "disabled:cursor-not-allowed disabled:bg-slate-100 aria-invalid:border-red-500",
  ),
  editor: cn(
    "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400",
    "focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-[invalid=true]:border-red-500",
  ),
} as const;

export type ControlLook = keyof typeof looks;

export function controlClass(look: ControlLook = "standard") {
  return looks[look];
}

/** The settings screens' select (the standard look without its text colour and states). */
export const SELECT_CLASS =
  "block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

export function Input({ className, look = "standard", ...props }: ComponentProps<"input"> & { look?: ControlLook }) {
  return <input className={cn(looks[look], className)} {...props} />;
}

export function Textarea({
  className,
  look = "standard",
  ...props
}: ComponentProps<"textarea"> & { look?: ControlLook }) {
  // A text box grows with its rows: the single-line height of the standard look does not apply.
  return <textarea className={cn(looks[look], "h-auto py-2", className)} {...props} />;
}
