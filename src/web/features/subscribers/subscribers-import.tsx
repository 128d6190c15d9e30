// Importing another provider's CSV export into the author's list: the author confirms these
// readers asked for mail, and sees the result in one sentence (ADR 067).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_MESSAGES,
  type SubscriberImport,
} from "../../../shared/schemas/subscribers.ts";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { errorMessage } from "../../lib/api.ts";
import { importSubscribers, SUBSCRIBERS_KEY } from "./subscribers-api.ts";

const count = (n: number) => n.toLocaleString("en-GB");

/** The result in one sentence: "1,204 imported, 3 already on your list, 2 not valid: line 17 (x), …". */
export function importSummary(r: SubscriberImport): string {
  const parts = [`${count(r.imported)} imported`];
  if (r.alreadyOnList > 0) parts.push(`${count(r.alreadyOnList)} already on your list`);
  let text = parts.join(", ");
  if (r.invalidCount > 0) {
    const lines = r.invalid.map((x) => `line ${x.line} (${x.value || "empty"})`).join(", ");
    const more = r.invalidCount > r.invalid.length ? ` and ${count(r.invalidCount - r.invalid.length)} more` : "";
    text += `, ${count(r.invalidCount)} not valid: ${lines}${more}`;
  }
  return `${text}.`;
}

export function ImportPanel({ onClose }: { onClose: () => void }) {
  const qc = useQueryClient();
  const consentId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [consent, setConsent] = useState(false);
  const [fieldError, setFieldError] = useState<{ field: string; message: string } | null>(null);
  const run = useMutation({
    mutationFn: () => {
      if (!file) throw new Error(IMPORT_MESSAGES.noFile);
      return importSubscribers(file, consent);
    },
    onSuccess: async () => {
      setFieldError(null);
      await qc.invalidateQueries({ queryKey: SUBSCRIBERS_KEY });
    },
    onError: (err) => {
      const field = (err as { field?: string }).field ?? "file";
      setFieldError({ field, message: errorMessage(err) });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run.reset();
    if (!file) return setFieldError({ field: "file", message: IMPORT_MESSAGES.noFile });
    if (!consent) return setFieldError({ field: "consent", message: IMPORT_MESSAGES.consent });
    run.mutate();
  };
  return (
    <Card>
      <CardContent>
        <form noValidate onSubmit={submit} className="space-y-4" aria-label="Import subscribers">
          <div>
            <h2 className="text-base font-semibold text-slate-900">Import from another provider</h2>
            <p className="mt-1 text-sm text-slate-600">
              A CSV export from Mailchimp, ConvertKit, Substack or a spreadsheet, with a column named "Email Address" or
              "email". At most {IMPORT_MAX_BYTES / 1024 / 1024} MB and {count(IMPORT_MAX_ROWS)} rows. Readers already on
              your list stay as they are: someone who unsubscribed is never added again.
            </p>
          </div>
          <Field
            label="CSV file"
            type="file"
            accept=".csv,text/csv,text/plain"
            error={fieldError?.field === "file" ? fieldError.message : undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setFieldError(null);
              run.reset();
            }}
          />
          <div>
            <label htmlFor={consentId} className="flex items-start gap-2 text-sm text-slate-800">
              <input
                id={consentId}
                type="checkbox"
                checked={consent}
                aria-invalid={fieldError?.field === "consent" ? true : undefined}
                aria-describedby={fieldError?.field === "consent" ? `${consentId}-error` : undefined}
                onChange={(e) => {
                  setConsent(e.target.checked);
                  setFieldError(null);
                }}
                className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600"
              />
              <span>
                Everyone on this list asked to receive my newsletter (they signed up with me, for example at my previous
                provider). They will be added as confirmed without a confirmation email.
              </span>
            </label>
            {fieldError?.field === "consent" ? (
              <p id={`${consentId}-error`} role="alert" className="mt-1 text-sm text-red-700">
                {fieldError.message}
              </p>
            ) : null}
          </div>
          {fieldError && fieldError.field !== "file" && fieldError.field !== "consent" ? (
            <Alert tone="error">{fieldError.message}</Alert>
          ) : null}
          {run.data ? (
            <Alert tone="success" data-testid="import-result">
              {importSummary(run.data)}
            </Alert>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="secondary" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" disabled={run.isPending}>
              {run.isPending ? "Importing..." : "Import"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
