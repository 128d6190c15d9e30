// 'Home Page': how the site's home page opens (a full-screen hero image with the author's name,
// tagline and two buttons, or a simple heading), the hero's colours, and optional content below.
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { LAYOUT_STYLES } from "../../../shared/enums.ts";
import { HOME_PAGE_MESSAGES, type HomePage, homePageSchema, LAYOUT_LABELS } from "../../../shared/schemas/home-page.ts";
import { HERO_MAX_BYTES, MB, UPLOAD_URL } from "../../../shared/schemas/uploads.ts";
import { ImageUpload } from "../../components/image-upload.tsx";
import { RichTextField } from "../../components/rich-text-field.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { client, fileUpload, read } from "../../lib/api.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { ColourFields } from "./colour-fields.tsx";
import { SettingsScreen, useSaveSettings } from "./settings-screen.tsx";

const HOME_KEY = ["home-page-settings"] as const;

const uploadHero = (file: File): Promise<HomePage> => read(client.site.hero.$post({}, fileUpload(file)));
const removeHero = () => read(client.site.hero.$delete());

export function HomePageSettingsPage() {
  return (
    <SettingsScreen queryKey={HOME_KEY} queryFn={() => read(client.site.home.$get())} height="h-64">
      {(data) => <HomePageForm initial={data} />}
    </SettingsScreen>
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
  const form = useZodForm(homePageSchema, { ...initial, heroImageUrl: initial.heroImageUrl ?? "" });
  const { register, control, handleSubmit, reset, formState } = form;
  const heroUrl = form.watch("heroImageUrl") ?? "";
  /** An upload or removal is saved at once: the screen takes the new image without losing edits. */
  function heroChanged(saved: HomePage, message: string) {
    qc.setQueryData(HOME_KEY, saved);
    form.setValue("heroImageUrl", saved.heroImageUrl ?? "", { shouldDirty: false });
    toast.success(message);
  }
  const errors = formState.errors;
  const layoutStyle = form.watch("layoutStyle");

  const save = useSaveSettings({
    queryKey: HOME_KEY,
    save: (body: HomePage) => read(client.site.home.$put({ json: body })),
    messages: HOME_PAGE_MESSAGES,
    form,
    onSaved: (saved) => reset({ ...saved, heroImageUrl: saved.heroImageUrl ?? "" }),
  });

  const hero = layoutStyle === "hero";
  return (
    <form noValidate onSubmit={handleSubmit((data) => save.mutate(data))} className="space-y-6">
      <PageHeading title="Home Page" description="The first thing readers see on your site.">
        <SaveButton busy={save.isPending}>Save Home Page</SaveButton>
      </PageHeading>

      <Card>
        <CardContent className="space-y-4">
          <fieldset>
            <legend className="text-sm font-medium text-slate-700">Layout</legend>
            <div className="mt-2 space-y-2">
              {LAYOUT_STYLES.map((style) => (
                <label key={style} className="flex cursor-pointer items-center gap-2 text-sm text-slate-800">
                  <input
                    type="radio"
                    value={style}
                    id={style === layoutStyle ? "home-layoutStyle" : undefined}
                    {...register("layoutStyle")}
                    className="h-4 w-4 accent-brand-600"
                  />
                  {LAYOUT_LABELS[style]}
                </label>
              ))}
            </div>
          </fieldset>
          {hero ? (
            <div className="space-y-4">
              <ImageUpload
                label="Hero image"
                shape="wide"
                currentUrl={heroUrl || null}
                maxBytes={HERO_MAX_BYTES}
                hint={`A wide picture, ideally 1920 × 800 px or larger; up to ${HERO_MAX_BYTES / MB} MB. Without one, a dark gradient is shown.`}
                upload={async (file) => heroChanged(await uploadHero(file), "Hero image uploaded")}
                remove={async () => heroChanged(await removeHero(), "Hero image removed")}
              />
              {/* An uploaded hero's address is ours: the field is for a picture that lives elsewhere. */}
              {!UPLOAD_URL.test(heroUrl) && (
                <Field
                  id="home-heroImageUrl"
                  label="Or link to an image"
                  type="url"
                  inputMode="url"
                  placeholder="https://"
                  error={errors.heroImageUrl?.message}
                  hint="An https:// address of a wide image."
                  {...register("heroImageUrl")}
                />
              )}
            </div>
          ) : null}
        </CardContent>
      </Card>

      {hero ? (
        <Card>
          <CardContent className="space-y-4">
            <h2 className="text-base font-semibold text-slate-900">Hero colours</h2>
            <ColourFields control={control} colours={COLOURS} idPrefix="home" />
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardContent>
          <RichTextField
            control={control}
            name="homePageContent"
            id="home-homePageContent"
            label="More on the home page"
            hint="Optional: news, an offer, a welcome. Shown below the opening of your home page."
            error={errors.homePageContent?.message}
          />
        </CardContent>
      </Card>
    </form>
  );
}
