// What the settings tabs share: the tabs above a form of one saved record, read once and handed
// to the form (SettingsLoader shows the placeholder or the error meanwhile), and the save that
// puts the answer back in the cache and says so.
import { type QueryKey, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { toast } from "sonner";
import { errorMessage } from "../../lib/api.ts";
import { setServerFieldError } from "../../lib/use-zod-form.ts";
import { SettingsLoader } from "./settings-loader.tsx";
import { SettingsTabs } from "./settings-tabs.tsx";

export function SettingsScreen<T>(props: {
  queryKey: QueryKey;
  queryFn: () => Promise<T>;
  height: "h-64" | "h-96";
  /** The screen's heading when it stands above the form (otherwise the form holds it). */
  heading?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const query = useQuery({ queryKey: props.queryKey, queryFn: props.queryFn });
  const loader = (
    <SettingsLoader query={query} height={props.height}>
      {props.children}
    </SettingsLoader>
  );
  return (
    <>
      <SettingsTabs />
      {props.heading ? (
        <div className="space-y-6">
          {props.heading}
          {loader}
        </div>
      ) : (
        loader
      )}
    </>
  );
}

/**
 * Saves a settings form: the answer replaces the cached record (`onSaved` brings the form in
 * step), then a toast; a refusal naming a field goes under that field when `form` is given.
 */
export function useSaveSettings<B, T, F extends FieldValues>(opts: {
  queryKey: QueryKey;
  save: (body: B) => Promise<T>;
  messages: { saved: string; failed: string };
  form?: Pick<UseFormReturn<F, unknown, unknown>, "setError">;
  onSaved?: (saved: T) => void;
}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: opts.save,
    onSuccess: (saved) => {
      qc.setQueryData(opts.queryKey, saved);
      opts.onSaved?.(saved);
      toast.success(opts.messages.saved);
    },
    onError: (err) => {
      if (opts.form) setServerFieldError(opts.form, err);
      toast.error(opts.messages.failed, { description: errorMessage(err) });
    },
  });
}
