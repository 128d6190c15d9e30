import { Plus } from "lucide-react";
import { useId, useState } from "react";
import { useFieldArray, useFormContext } from "react-hook-form";
import { Button } from "../../components/ui/button.tsx";
import { controlClass } from "../../components/ui/input.tsx";
import { RowControls } from "../../components/ui/row-controls.tsx";
import type { BookFormValues } from "./book-form-values.ts";
import { retailerLinkSchema } from "./book-form-values.ts";

/** Where else to buy the book: added, edited in place, reordered and removed; saved with the book. */
export function RetailerLinksEditor() {
  const { control, register, formState } = useFormContext<BookFormValues>();
  const { fields, append, remove, move } = useFieldArray({ control, name: "retailerLinks", keyName: "key" });
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const urlId = useId();
  const errors = formState.errors.retailerLinks;

  function add() {
    if (!name.trim() || !url.trim()) return setError("Please enter both the retailer name and URL");
    const parsed = retailerLinkSchema.safeParse({ retailerName: name, retailerUrl: url });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Invalid link");
    append({ retailerName: parsed.data.retailerName, retailerUrl: parsed.data.retailerUrl });
    setName("");
    setUrl("");
    setError(null);
  }

  return (
    <div className="space-y-3">
      {fields.length > 0 && (
        <ol className="space-y-2" aria-label="Retailer links">
          {fields.map((f, i) => (
            <li key={f.key} className="rounded-lg border border-slate-200 bg-slate-50 p-3" data-testid="retailer-link">
              <div className="flex flex-wrap items-start gap-2">
                <div className="min-w-40 flex-1">
                  <label className="sr-only" htmlFor={`${f.key}-name`}>
                    Retailer {i + 1} name
                  </label>
                  <input
                    id={`${f.key}-name`}
                    className={controlClass("editor")}
                    aria-invalid={Boolean(errors?.[i]?.retailerName)}
                    {...register(`retailerLinks.${i}.retailerName`)}
                  />
                </div>
                <div className="min-w-56 flex-[2]">
                  <label className="sr-only" htmlFor={`${f.key}-url`}>
                    Retailer {i + 1} URL
                  </label>
                  <input
                    id={`${f.key}-url`}
                    type="url"
                    className={controlClass("editor")}
                    aria-invalid={Boolean(errors?.[i]?.retailerUrl)}
                    {...register(`retailerLinks.${i}.retailerUrl`)}
                  />
                </div>
                <RowControls what="retailer" index={i} count={fields.length} move={move} remove={remove} />
              </div>
              {(errors?.[i]?.retailerName || errors?.[i]?.retailerUrl) && (
                <p role="alert" className="mt-1 text-xs font-medium text-red-600">
                  {errors?.[i]?.retailerName?.message ?? errors?.[i]?.retailerUrl?.message}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      <div className="grid gap-2 sm:grid-cols-[1fr_2fr_auto] sm:items-end">
        <div className="space-y-1">
          <label htmlFor={nameId} className="block text-xs font-medium text-slate-600">
            Retailer name
          </label>
          <input
            id={nameId}
            className={controlClass("editor")}
            placeholder="e.g. Waterstones"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="space-y-1">
          <label htmlFor={urlId} className="block text-xs font-medium text-slate-600">
            Retailer URL
          </label>
          <input
            id={urlId}
            type="url"
            className={controlClass("editor")}
            placeholder="https://"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
          />
        </div>
        <Button look="editor" variant="secondary" onClick={add}>
          <Plus className="h-4 w-4" aria-hidden="true" />
          Add Link
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-xs font-medium text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
