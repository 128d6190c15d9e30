// The one book form behind Add Book and Edit Book: every field of the spec, validated in the
// browser for quick feedback (the server validates again).
import { zodResolver } from "@hookform/resolvers/zod";
import { clsx } from "clsx";
import { type ReactNode, useState } from "react";
import { Controller, FormProvider, useForm } from "react-hook-form";
import { CURRENCIES } from "../../../shared/enums.ts";
import { CURRENCY_SYMBOLS } from "../../../shared/plans.ts";
import { RichTextField } from "../../components/rich-text-field.tsx";
import { SwitchField } from "../../components/switch-field.tsx";
import { Field } from "../../components/ui/field.tsx";
import { controlClass, Input, Textarea } from "../../components/ui/input.tsx";
import { Section } from "../../components/ui/section.tsx";
import { authorLocale, datePattern } from "../../lib/date-input.ts";
import { type BookFormValues, bookFormSchema, PRICE_TYPING, toBookInput } from "./book-form-values.ts";
import type { BookInput } from "./books-api.ts";
import { CoverUpload } from "./cover-upload.tsx";
import { GenresInput } from "./genres-input.tsx";
import { RetailerLinksEditor } from "./retailer-links-editor.tsx";
import { ReviewsEditor } from "./reviews-editor.tsx";
import { useSeries } from "./series-api.ts";

export type SubmitIntent = "save" | "view";

const FORMATS = [
  ["formatEbook", "Ebook"],
  ["formatPaperback", "Paperback"],
  ["formatHardback", "Hardback"],
  ["formatAudiobook", "Audiobook"],
  ["formatKindleUnlimited", "Kindle Unlimited"],
] as const;

/** What saving does to the cover: upload a new image, remove the current one, or leave it. */
export type CoverChange = File | "remove" | null;

export function BookForm({
  defaultValues,
  currentCoverUrl,
  disabled,
  onSubmit,
  actions,
}: {
  defaultValues: BookFormValues;
  currentCoverUrl: string | null;
  /** At the plan limit: the form stays readable but cannot be sent. */
  disabled?: boolean;
  onSubmit: (input: BookInput, cover: CoverChange, intent: SubmitIntent) => Promise<void>;
  actions: (state: { canSubmit: boolean; submitting: boolean; submit: (intent: SubmitIntent) => void }) => ReactNode;
}) {
  const form = useForm<BookFormValues>({ resolver: zodResolver(bookFormSchema), defaultValues, mode: "onTouched" });
  const { register, control, watch, formState, handleSubmit } = form;
  const [cover, setCover] = useState<File | null>(null);
  const [removeCover, setRemoveCover] = useState(false);
  const errors = formState.errors;

  const title = watch("title");
  const author = watch("author");
  const promoOn = watch("promoBadgeEnabled");
  const missingRequired = !title?.trim() || !author?.trim();
  const canSubmit = !missingRequired && !disabled && !formState.isSubmitting;

  const submit = (intent: SubmitIntent) =>
    handleSubmit(async (values) => {
      await onSubmit(toBookInput(values), cover ?? (removeCover ? "remove" : null), intent);
    })();

  const series = useSeries();
  const text = (
    name: keyof BookFormValues,
    label: string,
    opts: { placeholder?: string; hint?: string; type?: string; required?: boolean; list?: string } = {},
  ) => (
    <Field
      alert
      label={label}
      requiredMark={opts.required}
      hint={opts.hint}
      error={errors[name]?.message as string | undefined}
    >
      <Input
        look="editor"
        type={opts.type ?? "text"}
        placeholder={opts.placeholder}
        aria-required={opts.required}
        list={opts.list}
        {...register(name)}
      />
    </Field>
  );

  return (
    <FormProvider {...form}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (canSubmit) submit("save");
        }}
        // Fields scrolled to (by focus or Tab) stop above the sticky action bar, not under it.
        className="space-y-6 [&_[contenteditable]]:scroll-mb-28 [&_input]:scroll-mb-28 [&_select]:scroll-mb-28 [&_textarea]:scroll-mb-28"
        aria-label="Book details"
      >
        <Section title="Book details" description="The essentials readers see first.">
          <div className="grid gap-4 sm:grid-cols-2">
            {text("title", "Title", { required: true, placeholder: "The Midnight Library" })}
            {text("author", "Author", { required: true, placeholder: "Your pen name" })}
            {text("subtitle", "Subtitle")}
            {text("isbn", "ISBN", { placeholder: "978-…" })}
          </div>
          <RichTextField
            control={control}
            name="shortBlurb"
            alert
            label="Blurb"
            hint="Bold, italic, lists and links."
          />
          <div className="grid gap-4 sm:grid-cols-3">
            {text("releaseDate", "Release date", { placeholder: datePattern(authorLocale()) })}
            {text("seriesName", "Series name", { list: "series-names" })}
            {/* The author's series so far: picking one keeps the spelling the same. */}
            <datalist id="series-names">
              {(series.data ?? []).map((s) => (
                <option key={s.id} value={s.name} />
              ))}
            </datalist>
            <Field alert label="Number in series" error={errors.orderInSeries?.message}>
              <Input look="editor" type="number" min={1} step={1} inputMode="numeric" {...register("orderInSeries")} />
            </Field>
          </div>
          <Controller
            control={control}
            name="genres"
            render={({ field }) => (
              <Field alert label="Genres" hint="Press Enter after each genre.">
                <GenresInput value={field.value} onChange={field.onChange} />
              </Field>
            )}
          />
        </Section>

        <Section title="Cover">
          <CoverUpload
            currentUrl={currentCoverUrl}
            file={cover}
            onFile={(f) => {
              setCover(f);
              if (f) setRemoveCover(false);
            }}
            removed={removeCover}
            onRemovedChange={setRemoveCover}
          />
        </Section>

        <Section title="Formats & price">
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Available formats</legend>
            <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
              {FORMATS.map(([name, label]) => (
                <label key={name} className="inline-flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="h-4 w-4 rounded border-slate-300 accent-brand-500 focus-visible:ring-2 focus-visible:ring-brand-500"
                    {...register(name)}
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
            <Controller
              control={control}
              name="price"
              render={({ field }) => (
                <Field alert label="Price" error={errors.price?.message}>
                  <Input
                    look="editor"
                    inputMode="decimal"
                    placeholder="9.99"
                    value={field.value}
                    onBlur={field.onBlur}
                    ref={field.ref}
                    // Only digits and one decimal point get in while typing.
                    onChange={(e) => PRICE_TYPING.test(e.target.value) && field.onChange(e.target.value)}
                  />
                </Field>
              )}
            />
            <Field alert label="Currency">
              <select className={controlClass("editor")} {...register("primaryCurrency")}>
                {CURRENCIES.map((c) => (
                  <option key={c} value={c}>
                    {c} ({CURRENCY_SYMBOLS[c]})
                  </option>
                ))}
              </select>
            </Field>
          </div>
        </Section>

        <Section
          title="Where to buy"
          description="Links to stores (Amazon too), in your order; every link shows on the book page. Each reader sees their own country's store first and one Amazon, their own; the rest are under Other stores."
        >
          <RetailerLinksEditor />
        </Section>

        <Section title="Display & badges">
          <div className="divide-y divide-slate-100">
            <SwitchField control={control} name="visibilityEnabled" label="Visible on your website" />
            <SwitchField
              control={control}
              name="isFeatured"
              label="Featured book"
              description="Only one book can be featured at a time; featuring this one unfeatures the other."
            />
            <SwitchField control={control} name="bestsellerBadgeEnabled" label="Bestseller badge" />
            <SwitchField control={control} name="promoBadgeEnabled" label="Promo badge" />
          </div>
          {promoOn &&
            text("promoBadgeText", "Promo badge text", {
              placeholder: "e.g. 99p this week",
              hint: "Up to 40 characters.",
            })}
          <div className="grid gap-4 sm:grid-cols-2 sm:items-end">
            <Field alert label="Star rating (0–5)" error={errors.userRating?.message}>
              <Input look="editor" type="number" min={0} max={5} step={0.1} {...register("userRating")} />
            </Field>
            <SwitchField control={control} name="showUserRating" label="Show star rating" />
          </div>
          <Field alert label="Review snippet" hint="A short quote shown with the book.">
            <Textarea look="editor" rows={2} {...register("reviewSnippet")} />
          </Field>
        </Section>

        <Section title="Audiobook">
          <SwitchField control={control} name="audiobookEnabled" label="Show audiobook details" />
          <div className="grid gap-4 sm:grid-cols-2">
            {text("narratorName", "Narrator")}
            {text("audioSampleUrl", "Audio sample URL", { type: "url", placeholder: "https://" })}
          </div>
        </Section>

        <Section title="Reviews">
          <ReviewsEditor />
        </Section>

        <div
          className={clsx(
            "sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-white/95 px-4 py-4 backdrop-blur sm:mx-0 sm:rounded-xl sm:border",
          )}
        >
          {missingRequired && (
            <p className="mr-auto text-sm text-amber-700" role="status">
              Please fill in the required fields: Title and Author
            </p>
          )}
          {actions({ canSubmit, submitting: formState.isSubmitting, submit })}
        </div>
      </form>
    </FormProvider>
  );
}
