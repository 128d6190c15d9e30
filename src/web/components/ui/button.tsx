import { Slot } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "../../lib/utils.ts";
import { focusRing } from "./focus-ring.ts";

// Two looks, one component: "standard" for the account and settings screens, "editor" for the
// denser content editors (books), whose buttons are squarer and use the accent as primary.
// Keeping both here lets every screen keep its look while sharing one set of components.
const looks = {
  standard: {
    base: cn(
      "gap-2 whitespace-nowrap rounded-lg",
      "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500",
      "disabled:opacity-70",
    ),
    variants: {
      primary: "bg-brand-600 text-white shadow-sm hover:bg-brand-700 disabled:bg-brand-600/60",
      secondary: "border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50",
      ghost: "text-slate-700 hover:bg-slate-100",
      danger: "bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-600/60",
      dangerGhost: "text-red-600 hover:bg-red-50 disabled:text-red-300",
      link: "text-brand-600 underline-offset-4 hover:underline hover:text-brand-700 px-0 py-0 h-auto",
    },
  },
  editor: {
    base: cn("gap-1.5 rounded-md", focusRing),
    variants: {
      primary: "bg-brand-600 text-white hover:bg-brand-700 shadow-sm disabled:bg-indigo-300",
      secondary: "bg-white text-slate-700 border border-slate-300 hover:bg-slate-50 shadow-sm disabled:text-slate-400",
      ghost: "text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:text-slate-300",
      danger: "bg-red-600 text-white hover:bg-red-700 shadow-sm disabled:bg-red-300",
      dangerGhost: "text-red-600 hover:bg-red-50 disabled:text-red-300",
      link: "text-brand-600 underline-offset-4 hover:underline hover:text-brand-700 px-0 py-0 h-auto",
    },
  },
} as const;

const sizes = { sm: "h-8 px-3 text-sm", md: "h-10 px-4 text-sm", lg: "h-12 px-6 text-base", icon: "h-8 w-8" } as const;

export type ButtonProps = ComponentProps<"button"> & {
  variant?: keyof (typeof looks)["standard"]["variants"];
  size?: keyof typeof sizes;
  look?: keyof typeof looks;
  asChild?: boolean;
};

export function Button({
  className,
  variant = "primary",
  size = "md",
  look = "standard",
  asChild,
  type,
  ...props
}: ButtonProps) {
  const Comp = asChild ? Slot.Root : "button";
  return (
    <Comp
      type={asChild ? undefined : (type ?? "button")}
      className={cn(
        "inline-flex items-center justify-center font-medium transition-colors disabled:cursor-not-allowed",
        looks[look].base,
        sizes[size],
        looks[look].variants[variant],
        className,
      )}
      {...props}
    />
  );
}
