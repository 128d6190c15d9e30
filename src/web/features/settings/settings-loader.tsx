// What every settings tab shows before its form: a placeholder while the saved values load, or
// the error with Try again if they could not be loaded.
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { LoadFailed } from "../../components/ui/load-failed.tsx";
import { errorMessage } from "../../lib/api.ts";

export function SettingsLoader<T>(props: {
  query: UseQueryResult<T>;
  /** The placeholder's height, about that of the form it stands for. */
  height: "h-64" | "h-96";
  children: (data: T) => ReactNode;
}) {
  const { query } = props;
  if (query.isPending)
    return <div aria-busy="true" className={`${props.height} animate-pulse rounded-2xl bg-slate-100`} />;
  if (query.isError) {
    return (
      <LoadFailed retry={() => query.refetch()}>Failed to load website data. {errorMessage(query.error)}</LoadFailed>
    );
  }
  return props.children(query.data);
}
