import { Plus } from "lucide-react";
import { useId, useState } from "react";
import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import {
  AMAZON_STOREFRONTS,
  amazonUrlFor,
  asinOfAmazonUrl,
  STORE_CURRENCIES,
  STOREFRONT_IDS,
  STOREFRONTS,
  type Storefront,
  storefrontOfUrl,
} from "../../../shared/storefronts.ts";
import { Button } from "../../components/ui/button.tsx";
import { controlClass } from "../../components/ui/input.tsx";
import { Options } from "../../components/ui/options.tsx";
import { RowControls, RowError, RowField, RowInput } from "../../components/ui/row-controls.tsx";
import { cn } from "../../lib/utils.ts";
import type { BookFormValues } from "./book-form-values.ts";
import { retailerLinkSchema } from "./book-form-values.ts";

const label = (s: string) => (s in STOREFRONTS ? STOREFRONTS[s as Storefront].label : "Other store");

/**
 * Where to buy the book: one link per store, each with its storefront (readers are sent to their
 * own first, ADR 036) and an optional price; added, edited in place, reordered and removed; saved
 * with the book; every link shows on the book page. From an Amazon link, the other Amazon
 * marketplaces are offered by its ASIN (readers see one Amazon: their own).
 */
export function RetailerLinksEditor() {
  const { control, register, formState } = useFormContext<BookFormValues>();
  const { fields, append, remove, move } = useFieldArray({ control, name: "retailerLinks", keyName: "key" });
  const links = useWatch({ control, name: "retailerLinks" }) ?? [];
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const urlId = useId();
  const errors = formState.errors.retailerLinks;

  // The ASIN of the first Amazon product link, and the marketplaces that have no link yet.
  const asin = links.map((l) => asinOfAmazonUrl(l.retailerUrl.trim())).find(Boolean) ?? null;
  const present = new Set(links.map((l) => l.storefront || storefrontOfUrl(l.retailerUrl.trim())).filter(Boolean));
  const missing = asin ? AMAZON_STOREFRONTS.filter((s) => !present.has(s)) : [];

  function addStore(storefront: Storefront) {
    const href = asin ? amazonUrlFor(storefront, asin) : null;
    if (!href) return;
    append({ retailerName: label(storefront), retailerUrl: href, storefront, price: "", currency: "" });
  }

  function add() {
    const known = storefrontOfUrl(url.trim());
    const typedName = name.trim() || (known ? label(known) : "");
    if (!typedName || !url.trim()) return setError("Please enter both the retailer name and URL");
    const parsed = retailerLinkSchema.safeParse({ retailerName: typedName, retailerUrl: url });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "Invalid link");
    append({
      retailerName: parsed.data.retailerName,
      retailerUrl: parsed.data.retailerUrl,
      storefront: known ?? "",
      price: "",
      currency: "",
    });
    setName("");
    setUrl("");
    setError(null);
  }

  return (
    <div className="space-y-3">
      {fields.length > 0 && (
        <ol className="space-y-2" aria-label="Retailer links">
          {fields.map((f, i) => {
            const e = errors?.[i];
            const message =
              e?.retailerName?.message ??
              e?.retailerUrl?.message ??
              e?.storefront?.message ??
              e?.price?.message ??
              e?.currency?.message;
            return (
              <li
                key={f.key}
                className="rounded-lg border border-slate-200 bg-slate-50 p-3"
                data-testid="retailer-link"
              >
                <div className="flex flex-wrap items-start gap-2">
                  <RowInput
                    id={`${f.key}-name`}
                    label={`Retailer ${i + 1} name`}
                    hideLabel
                    className="min-w-40 flex-1"
                    aria-invalid={Boolean(e?.retailerName)}
                    {...register(`retailerLinks.${i}.retailerName`)}
                  />
                  <RowInput
                    id={`${f.key}-url`}
                    label={`Retailer ${i + 1} URL`}
                    hideLabel
                    className="min-w-56 flex-[2]"
                    type="url"
                    aria-invalid={Boolean(e?.retailerUrl)}
                    {...register(`retailerLinks.${i}.retailerUrl`)}
                  />
                  <RowControls what="retailer" index={i} count={fields.length} move={move} remove={remove} />
                </div>
                <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                  {/* Named per row for assistive tech (the book's own Price and Currency keep their names). */}
                  <span aria-hidden="true">Store</span>
                  <select
                    className={cn(controlClass("editor"), "w-auto")}
                    aria-label={`Retailer ${i + 1} store`}
                    {...register(`retailerLinks.${i}.storefront`)}
                  >
                    <option value="">Other store</option>
                    <Options values={STOREFRONT_IDS} label={(s) => label(s)} />
                  </select>
                  <span aria-hidden="true" className="ml-2">
                    Price
                  </span>
                  <input
                    inputMode="decimal"
                    placeholder="optional"
                    className={cn(controlClass("editor"), "w-24")}
                    aria-label={`Retailer ${i + 1} price`}
                    aria-invalid={Boolean(e?.price || e?.currency)}
                    {...register(`retailerLinks.${i}.price`)}
                  />
                  <select
                    className={cn(controlClass("editor"), "w-auto")}
                    aria-label={`Retailer ${i + 1} currency`}
                    {...register(`retailerLinks.${i}.currency`)}
                  >
                    <option value="">Store's currency</option>
                    <Options values={STORE_CURRENCIES} />
                  </select>
                </div>
                {message && <RowError className="mt-1">{message}</RowError>}
              </li>
            );
          })}
        </ol>
      )}
      {missing.length > 0 && asin && (
        <section
          aria-label="Other Amazon stores"
          className="rounded-lg border border-indigo-200 bg-indigo-50/60 p-3 text-sm text-slate-700"
        >
          <p>
            Sell on other Amazon stores too? From ASIN <strong className="font-mono">{asin}</strong>:
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            {missing.map((s) => (
              <Button key={s} look="editor" variant="secondary" size="sm" onClick={() => addStore(s)}>
                <Plus className="h-3.5 w-3.5" aria-hidden="true" />
                {label(s)}
              </Button>
            ))}
            {missing.length > 1 && (
              <Button look="editor" variant="ghost" size="sm" onClick={() => missing.forEach(addStore)}>
                Add all {missing.length}
              </Button>
            )}
          </div>
        </section>
      )}
      <div className="grid gap-2 sm:grid-cols-[1fr_2fr_auto] sm:items-end">
        <RowField id={nameId} label="Retailer name">
          <input
            id={nameId}
            className={controlClass("editor")}
            placeholder="e.g. Waterstones"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </RowField>
        <RowField id={urlId} label="Retailer URL">
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
        </RowField>
        <Button look="editor" variant="secondary" onClick={add}>
          <Plus className="h-4 w-4" aria-hidden="true" />
          Add Link
        </Button>
      </div>
      {error ? (
        <RowError>{error}</RowError>
      ) : (
        url.trim() && (
          // A typed address is not saved with the book until it is added to the list.
          <p className="text-xs font-medium text-amber-800" role="status">
            Not added yet: press Add Link to keep this link.
          </p>
        )
      )}
    </div>
  );
}
