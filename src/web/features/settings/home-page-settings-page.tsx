// 'Home Page': how the site's home page opens (a full-screen hero image with the author's name,
// tagline and two buttons, or a simple heading), the hero's colours, and optional content below.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { LAYOUT_STYLES } from "../../../shared/enums.ts";
import { HOME_PAGE_MESSAGES, type HomePage, homePageSchema, LAYOUT_LABELS } from "../../../shared/schemas/home-page.ts";
import { RichTextEditor } from "../../components/rich-text-editor.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { ApiError, api, errorMessage } from "../../lib/api.ts";
import { SettingsLoader } from "./settings-loader.tsx";
import { ColourField } from "./settings-page.tsx";
import { SettingsTabs } from "./settings-tabs.tsx";

const HOME_KEY = ["home-page-settings"] as const;
type Errors = Partial<Record<keyof HomePage, string>>;

export function HomePageSettingsPage() {
  const home = useQuery({ queryKey: HOME_KEY, queryFn: () => api<HomePage>("/api/site/home") });
  return (
    <>
      <SettingsTabs />
      <SettingsLoader query={home} height="h-64">
        {(data) => <HomePageForm initial={data} />}
      </SettingsLoader>
    </>
  );
}

const COLOURS = [
  ["heroTextColor", "Hero text"],
  ["heroButtonColor", "First button (View Books)"],
  ["heroButtonTextColor", "First button text"],
  ["heroButtonSecondaryColor", "Second button (About Me)"],
  ["heroButtonSecondaryTextColor", "Second button text"],
] as const;

function HomePageForm({ initial }: { initial: HomePage }) {
  const qc = useQueryClient();
  const [values, setValues] = useState({ ...initial, heroImageUrl: initial.heroImageUrl ?? "" });
  const [errors, setErrors] = useState<Errors>({});
  const set = <K extends keyof typeof values>(key: K, value: (typeof values)[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const save = useMutation({
    mutationFn: (body: HomePage) => api<HomePage>("/api/site/home", { method: "PUT", json: body }),
    onSuccess: (saved) => {
      qc.setQueryData(HOME_KEY, saved);
      setValues({ ...saved, heroImageUrl: saved.heroImageUrl ?? "" });
      toast.success(HOME_PAGE_MESSAGES.saved);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.field) setErrors({ [err.field]: err.message });
      toast.error(HOME_PAGE_MESSAGES.failed, { description: errorMessage(err) });
    },
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    const parsed = homePageSchema.safeParse(values);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) found[issue.path[0] as keyof HomePage] ??= issue.message;
      setErrors(found);
      document.getElementById(`home-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    save.mutate(parsed.data);
  }

  const hero = values.layoutStyle === "hero";
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Home Page</h1>
          <p className="mt-1 text-sm text-slate-600">The first thing readers see on your site.</p>
        </div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save Home Page"}
        </Button>
      </div>

      <Card>
        <CardContent className="space-y-4">
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Layout</legend>
            <div className="mt-2 space-y-2">
              {LAYOUT_STYLES.map((style) => (
                <label key={style} className="flex cursor-pointer items-center gap-2 text-sm text-slate-800">
                  <input
                    type="radio"
                    name="layoutStyle"
                    value={style}
                    id={style === values.layoutStyle ? "home-layoutStyle" : undefined}
                    checked={values.layoutStyle === style}
                    onChange={() => set("layoutStyle", style)}
                    className="h-4 w-4 accent-brand-600"
                  />
                  {LAYOUT_LABELS[style]}
                </label>
              ))}
            </div>
          </fieldset>
          {hero ? (
            <Field
              id="home-heroImageUrl"
              label="Hero image address"
              type="url"
              inputMode="url"
              placeholder="https://"
              value={values.heroImageUrl}
              error={errors.heroImageUrl}
              hint="An https:// address of a wide image, ideally 1920 × 800 px. Without one, a dark gradient is shown."
              onChange={(e) => set("heroImageUrl", e.target.value)}
            />
          ) : null}
        </CardContent>
      </Card>

      {hero ? (
        <Card>
          <CardContent className="space-y-4">
            <h2 className="text-base font-semibold text-slate-900">Hero colours</h2>
            <div className="grid gap-4 sm:grid-cols-2">
              {COLOURS.map(([key, label]) => (
                <ColourField
                  key={key}
                  id={`home-${key}`}
                  label={label}
                  value={values[key]}
                  error={errors[key]}
                  onChange={(v) => set(key, v)}
                />
              ))}
            </div>
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardContent className="space-y-1.5">
          <label htmlFor="home-homePageContent" className="block text-sm font-medium text-slate-700">
            More on the home page
          </label>
          <RichTextEditor
            id="home-homePageContent"
            label="More on the home page"
            describedBy={errors.homePageContent ? "home-homePageContent-error" : "home-homePageContent-hint"}
            value={values.homePageContent ?? ""}
            onChange={(html) => set("homePageContent", html)}
          />
          {errors.homePageContent ? (
            <p id="home-homePageContent-error" className="text-sm text-red-700">
              {errors.homePageContent}
            </p>
          ) : (
            <p id="home-homePageContent-hint" className="text-xs text-slate-500">
              Optional: news, an offer, a welcome. Shown below the opening of your home page.
            </p>
          )}
        </CardContent>
      </Card>
    </form>
  );
}
