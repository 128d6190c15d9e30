import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../../lib/utils.ts";

/**
 * What a list shows while it has nothing: a large icon, a title, a line of text (`children`) and
 * optionally the action that adds the first item.
 */
export function EmptyState({
  icon: Icon,
  title,
  action,
  className,
  textClassName,
  children,
}: {
  icon: LucideIcon;
  title: string;
  action?: ReactNode;
  className?: string;
  textClassName?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={cn("rounded-2xl border-2 border-dashed border-slate-300 bg-white px-6 py-16 text-center", className)}
    >
      <Icon className="mx-auto h-12 w-12 text-slate-400" aria-hidden="true" />
      <h2 className="mt-4 text-lg font-semibold text-slate-900">{title}</h2>
      <p className={cn("mt-1 text-sm text-slate-500", textClassName)}>{children}</p>
      {action}
    </div>
  );
}
