// 'Free book for new subscribers' on the Newsletter tab (ADR 068): upload, replace or remove the
// EPUB or PDF readers get for confirming, the title the sign-up form offers, and the downloads of
// the last 30 days. The server judges the file by its content; the size check here saves a trip.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { formatDate } from "../../../shared/dates.ts";
import {
  MAGNET_DOWNLOADS_PER_READER,
  MAGNET_LINK_DAYS,
  MAGNET_MAX_BYTES,
  MAGNET_MESSAGES,
  type MagnetState,
  magnetKind,
  magnetTitleSchema,
} from "../../../shared/schemas/magnet.ts";
import { MB } from "../../../shared/schemas/uploads.ts";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmRemoval } from "../../components/ui/confirm-dialog.tsx";
import { Field } from "../../components/ui/field.tsx";
import { LoadingBox } from "../../components/ui/loading-box.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { Section } from "../../components/ui/section.tsx";
import { client, errorMessage, fileUpload, read } from "../../lib/api.ts";
import { setServerFieldError, useZodForm } from "../../lib/use-zod-form.ts";

const MAGNET_KEY = ["newsletter-magnet"] as const;

const sizeText = (bytes: number) =>
  bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export function MagnetPanel() {
  const state = useQuery({ queryKey: MAGNET_KEY, queryFn: () => read(client.newsletter.magnet.$get()) });
  return (
    <Section
      title="Free book for new subscribers"
      description={`Offer a free book on your sign-up form. Readers get a download link when they confirm: it works for ${MAGNET_LINK_DAYS} days and for ${MAGNET_DOWNLOADS_PER_READER} downloads each. EPUB or PDF, at most ${MAGNET_MAX_BYTES / MB} MB.`}
    >
      {state.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {errorMessage(state.error)}
        </p>
      ) : state.data ? (
        <MagnetBody state={state.data} />
      ) : (
        <LoadingBox className="h-40" />
      )}
    </Section>
  );
}

function MagnetBody({ state }: { state: MagnetState }) {
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: MAGNET_KEY });
  const { magnet } = state;
  return (
    <>
      {magnet ? (
        <>
          <p className="text-sm text-slate-700" data-testid="magnet-file">
            <span className="font-medium break-all">{magnet.fileName}</span> · {magnetKind(magnet.type)} ·{" "}
            {sizeText(magnet.size)}
          </p>
          <TitleForm title={magnet.title} onSaved={refresh} />
        </>
      ) : null}
      <FileInput replacing={magnet !== null} onDone={refresh} />
      {magnet ? <RemoveButton onDone={refresh} /> : null}
      <Downloads state={state} />
    </>
  );
}

function FileInput({ replacing, onDone }: { replacing: boolean; onDone: () => Promise<void> }) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | undefined>();
  const upload = useMutation({
    mutationFn: (file: File) => read(client.newsletter.magnet.file.$post({}, fileUpload(file))),
    onSuccess: async () => {
      setError(undefined);
      toast.success(MAGNET_MESSAGES.saved);
      await onDone();
    },
    onError: (err) => setError(errorMessage(err)),
    onSettled: () => {
      if (input.current) input.current.value = "";
    },
  });
  return (
    <Field
      label={replacing ? "Replace the file" : "EPUB or PDF file"}
      hint={upload.isPending ? "Uploading..." : `At most ${MAGNET_MAX_BYTES / MB} MB.`}
      error={error}
      alert
    >
      <input
        ref={input}
        type="file"
        accept=".epub,.pdf,application/epub+zip,application/pdf"
        disabled={upload.isPending}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) return;
          if (file.size > MAGNET_MAX_BYTES) {
            setError(MAGNET_MESSAGES.tooLarge);
            e.target.value = "";
            return;
          }
          upload.mutate(file);
        }}
        className="block w-full max-w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-indigo-100"
      />
    </Field>
  );
}

function TitleForm({ title, onSaved }: { title: string; onSaved: () => Promise<void> }) {
  const form = useZodForm(magnetTitleSchema, { title });
  const { register, handleSubmit, formState, reset } = form;
  useEffect(() => reset({ title }), [title, reset]);
  const save = useMutation({
    mutationFn: (body: { title: string }) => read(client.newsletter.magnet.$patch({ json: body })),
    onSuccess: async () => {
      toast.success(MAGNET_MESSAGES.saved);
      await onSaved();
    },
    onError: (err) => {
      setServerFieldError(form, err);
      toast.error(MAGNET_MESSAGES.failed, { description: errorMessage(err) });
    },
  });
  return (
    <form noValidate onSubmit={handleSubmit((data) => save.mutate(data))} className="space-y-3">
      <Field
        label="Title in the offer"
        hint="Your sign-up form says: Get <title> free."
        error={formState.errors.title?.message}
        {...register("title")}
      />
      <div className="flex justify-end">
        <SaveButton busy={save.isPending}>Save title</SaveButton>
      </div>
    </form>
  );
}

function RemoveButton({ onDone }: { onDone: () => Promise<void> }) {
  const remove = useMutation({
    mutationFn: () => read(client.newsletter.magnet.$delete()),
    onSuccess: async () => {
      toast.success(MAGNET_MESSAGES.removed);
      await onDone();
    },
    onError: (err) => toast.error(MAGNET_MESSAGES.failed, { description: errorMessage(err) }),
  });
  return (
    <ConfirmRemoval
      trigger={(ask) => (
        <Button variant="ghost" size="sm" className="text-red-700 hover:bg-red-50" onClick={ask}>
          <Trash2 className="h-4 w-4" aria-hidden="true" /> Remove the free book
        </Button>
      )}
      removal={remove}
      title="Remove the free book?"
      confirmLabel="Remove"
      busyLabel="Removing..."
    >
      <p>Your sign-up form stops offering it, and links readers were already sent stop working.</p>
    </ConfirmRemoval>
  );
}

/** Bars per day (each with its figures as a title) and, in words, the days that had any. */
function Downloads({ state }: { state: MagnetState }) {
  const max = Math.max(1, ...state.downloads.map((d) => d.count));
  const busy = state.downloads.filter((d) => d.count > 0).reverse();
  return (
    <div className="space-y-2 border-t border-slate-100 pt-4">
      <h3 className="text-sm font-semibold text-slate-900" data-testid="magnet-total">
        Downloads in the last 30 days: {state.total.toLocaleString("en-GB")}
      </h3>
      <div
        className="flex h-16 items-end gap-px rounded-md bg-slate-50 p-1"
        role="img"
        aria-label={`Downloads per day over the last 30 days, ${state.total} in all`}
      >
        {state.downloads.map((d) => (
          <div
            key={d.date}
            title={`${formatDate(d.date)}: ${d.count}`}
            className="min-w-0 flex-1 rounded-sm bg-brand-500"
            style={{ height: `${d.count === 0 ? 2 : Math.max(8, (d.count / max) * 100)}%` }}
          />
        ))}
      </div>
      {busy.length > 0 ? (
        <table className="w-full text-sm text-slate-700">
          <thead className="sr-only">
            <tr>
              <th>Day</th>
              <th>Downloads</th>
            </tr>
          </thead>
          <tbody>
            {busy.slice(0, 7).map((d) => (
              <tr key={d.date} className="border-b border-slate-100 last:border-0">
                <td className="py-1">{formatDate(d.date)}</td>
                <td className="py-1 text-right tabular-nums">{d.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-sm text-slate-500">No downloads yet.</p>
      )}
    </div>
  );
}
