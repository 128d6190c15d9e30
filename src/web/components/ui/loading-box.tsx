import { cn } from "../../lib/utils.ts";

/** A pulsing box where something is loading; `className` gives its height. */
export function LoadingBox({ className }: { className: string }) {
  return (
    <div aria-busy="true" className={cn("animate-pulse rounded-2xl bg-slate-100", className)}>
      <span className="sr-only">Loading...</span>
    </div>
  );
}
