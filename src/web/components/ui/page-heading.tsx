import type { ReactNode } from "react";

/**
 * A screen's title and what it is for. `children` are its actions (a Save button, a period
 * picker): beside the title on a wide screen, under it when they do not fit.
 */
export function PageHeading({
  title,
  description,
  more,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  /** Another line under the description (a price, a condition). */
  more?: ReactNode;
  children?: ReactNode;
}) {
  const heading = (
    <div>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      {more}
    </div>
  );
  if (!children) return heading;
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      {heading}
      {children}
    </div>
  );
}
