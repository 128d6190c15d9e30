// 'Site Settings': the site's name, which pages readers see, and its look. Checked with the
// same schema as the server, saved in one request; the public pages change at once.
import { readable } from "../../../shared/colour-contrast.ts";
import { FONT_FAMILIES, LOGO_ICONS } from "../../../shared/enums.ts";
import {
  HEADER_SIZE,
  SETTINGS_MESSAGES,
  type SiteSettings,
  type SiteSettingsInput,
  siteSettingsSchema,
} from "../../../shared/schemas/site-settings.ts";
import { SwitchField } from "../../components/switch-field.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { SELECT_CLASS } from "../../components/ui/input.tsx";
import { Label } from "../../components/ui/label.tsx";
import { Options } from "../../components/ui/options.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { client, read } from "../../lib/api.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { ColourFields } from "./colour-fields.tsx";
import { SettingsScreen, useSaveSettings } from "./settings-screen.tsx";

const SETTINGS_KEY = ["site-settings"] as const;

const FONT_LABELS: Record<(typeof FONT_FAMILIES)[number], string> = {
  inter: "Inter",
  "open-sans": "Open Sans",
  roboto: "Roboto",
  lato: "Lato",
  "source-sans-pro": "Source Sans Pro",
  poppins: "Poppins",
  merriweather: "Merriweather",
  "playfair-display": "Playfair Display",
  "crimson-text": "Crimson Text",
};

const PAGES = [
  ["booksEnabled", "Books", "Your books, by position"],
  ["aboutEnabled", "About", "Your bio and photo"],
  ["newsEnabled", "Blog", "Your posts and news"],
  ["newsletterEnabled", "Newsletter", "The sign-up form"],
  ["contactEnabled", "Contact", "The contact form and your links"],
] as const;

const COLOURS = [
  ["accentColor", "Accent colour"],
  ["iconColor", "Icon colour"],
  ["buttonColor", "Button colour"],
  ["buttonTextColor", "Button text colour"],
  ["buttonHoverColor", "Button hover colour"],
  ["buttonHoverTextColor", "Button hover text colour"],
  ["headerBackgroundColor", "Header background"],
  ["footerBackgroundColor", "Footer background"],
] as const;

export function SettingsPage() {
  return (
    <SettingsScreen queryKey={SETTINGS_KEY} queryFn={() => read(client.site.settings.$get())} height="h-96">
      {(data) => <SettingsForm initial={data} />}
    </SettingsScreen>
  );
}

function SettingsForm({ initial }: { initial: SiteSettings }) {
  const form = useZodForm(siteSettingsSchema, initial);
  const { register, control, handleSubmit, reset, formState } = form;
  const errors = formState.errors;
  const values = form.watch();

  const save = useSaveSettings({
    queryKey: SETTINGS_KEY,
    save: (body: SiteSettings) => read(client.site.settings.$patch({ json: body })),
    messages: SETTINGS_MESSAGES,
    form,
    onSaved: reset,
  });

  return (
    <form noValidate onSubmit={handleSubmit((data) => save.mutate(data))} className="space-y-6">
      <PageHeading title="Site Settings" description="Your site's name, its pages and its look.">
        <SaveButton busy={save.isPending}>Save Settings</SaveButton>
      </PageHeading>

      <Card>
        <CardContent className="space-y-4">
          <h2 className="text-base font-semibold text-slate-900">Website</h2>
          <Field
            id="settings-websiteName"
            label="Website name *"
            maxLength={100}
            error={errors.websiteName?.message}
            {...register("websiteName")}
          />
          <Field
            id="settings-websiteTitle"
            label="Page title"
            hint="Shown in the browser tab and search results; your name is used when empty."
            maxLength={120}
            error={errors.websiteTitle?.message}
            {...register("websiteTitle")}
          />
          <Field
            id="settings-tagline"
            label="Site tagline"
            hint="Under the site name on your home page and in the footer; when empty, the author tagline from your Bio is used."
            maxLength={200}
            error={errors.tagline?.message}
            {...register("tagline")}
          />
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <h2 className="text-base font-semibold text-slate-900">Pages</h2>
          <p className="mt-1 text-sm text-slate-600">
            A page that is off disappears from your site's menu and answers 'not found'. So does a page with nothing in
            it yet (no books, bio, posts or sign-up form), until you add some.
          </p>
          <div className="mt-3 divide-y divide-slate-100">
            <Switch label="Home" description="Always on" checked disabled onChange={() => undefined} />
            {PAGES.map(([key, label, description]) => (
              <SwitchField key={key} control={control} name={key} label={label} description={description} />
            ))}
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardContent className="space-y-5">
          <h2 className="text-base font-semibold text-slate-900">Design</h2>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field id="settings-fontFamily" label="Font">
              <select {...register("fontFamily")} className={SELECT_CLASS}>
                <Options values={FONT_FAMILIES} label={(f) => FONT_LABELS[f]} />
              </select>
            </Field>
            <Field id="settings-logoIcon" label="Header icon">
              <select {...register("logoIcon")} className={SELECT_CLASS}>
                <Options values={LOGO_ICONS} label={(i) => i.replace(/([a-z])([A-Z])/g, "$1 $2")} />
              </select>
            </Field>
          </div>
          <div className="space-y-1.5">
            <div className="flex items-baseline justify-between">
              <Label htmlFor="settings-headerSize">Header size</Label>
              <span className="text-sm text-slate-600">{values.headerSize.toFixed(1)} rem</span>
            </div>
            <input
              id="settings-headerSize"
              type="range"
              min={HEADER_SIZE.min}
              max={HEADER_SIZE.max}
              step={HEADER_SIZE.step}
              {...register("headerSize", { valueAsNumber: true })}
              className="w-full accent-brand-600"
            />
          </div>
          <ColourFields control={control} colours={COLOURS} idPrefix="settings" />
          <Preview values={values} />
        </CardContent>
      </Card>

      <div className="flex justify-end">
        <SaveButton busy={save.isPending}>Save Settings</SaveButton>
      </div>
    </form>
  );
}

/** A sketch of the header and a button in the chosen colours; the real page is one click away. */
function Preview({ values }: { values: SiteSettingsInput }) {
  const safe = (c: string, fallback: string) => (/^#[0-9a-fA-F]{6}$/.test(c) ? c : fallback);
  return (
    <div aria-hidden="true" className="overflow-hidden rounded-xl border border-slate-200">
      <div
        className="flex items-center gap-2 px-4 py-3"
        style={{ background: safe(values.headerBackgroundColor, "#ffffff") }}
      >
        <span className="h-4 w-4 rounded-sm" style={{ background: safe(values.iconColor, "#6366f1") }} />
        <span className="font-semibold" style={{ fontSize: `${values.headerSize}rem`, lineHeight: 1.2 }}>
          {values.websiteName || "Your website"}
        </span>
        {/* The site's menu shows the accent shaded until it reads on the header; so does this. */}
        <span
          className="ml-auto text-sm"
          style={{
            color: readable(safe(values.accentColor, "#6366f1"), safe(values.headerBackgroundColor, "#ffffff")),
          }}
        >
          Books
        </span>
      </div>
      <div className="bg-slate-50 px-4 py-5">
        <span
          className="inline-block rounded-md px-4 py-2 text-sm font-semibold"
          style={{ background: safe(values.buttonColor, "#2563eb"), color: safe(values.buttonTextColor, "#ffffff") }}
        >
          View Books
        </span>
      </div>
      <div
        className="px-4 py-3 text-xs text-white/80"
        style={{ background: safe(values.footerBackgroundColor, "#1f2937") }}
      >
        © {values.websiteName || "Your website"}
      </div>
    </div>
  );
}
