// 'Author Bio': the words, tagline and photo the public About page shows. Checked with the
// server's own schema before sending; the public page changes as soon as the save lands.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import type { FormEvent } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { GENRES } from "../../../shared/genres.ts";
import {
  BIO_MESSAGES,
  DEFAULT_BIO,
  type JourneyEntry,
  PROFILE_LIMITS,
  profileUpdateSchema,
} from "../../../shared/schemas/profile.ts";
import { MB, PHOTO_MAX_BYTES, UPLOAD_URL } from "../../../shared/schemas/uploads.ts";
import { ImageUpload } from "../../components/image-upload.tsx";
import { RichTextField } from "../../components/rich-text-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { LoadFailed } from "../../components/ui/load-failed.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { useSubdomain } from "../../lib/account-state.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { setServerFieldError, useZodForm } from "../../lib/use-zod-form.ts";
import { PROFILE_KEY, type Profile, removePhoto, saveProfile, uploadPhoto, useProfile } from "./bio-api.ts";
import { JourneyEditor } from "./journey-editor.tsx";

type Values = {
  bio: string;
  tagline: string;
  genre: string;
  authorPhotoUrl: string;
  writingJourney: JourneyEntry[];
};
type Intent = "save" | "view";

export function BioPage() {
  const profile = useProfile();
  if (profile.isPending) {
    return (
      <div aria-busy="true" className="space-y-4">
        <span className="sr-only">Loading...</span>
        <div className="h-10 w-48 animate-pulse rounded-lg bg-slate-100" />
        <div className="h-80 animate-pulse rounded-2xl bg-slate-100" />
      </div>
    );
  }
  if (profile.isError) {
    return (
      <LoadFailed retry={() => profile.refetch()}>
        <p>{BIO_MESSAGES.loadFailed}</p>
      </LoadFailed>
    );
  }
  return <BioForm initial={profile.data} />;
}

const toValues = (p: Profile): Values => ({
  // The placeholder is the site's, not the author's words: start them on an empty page.
  bio: p.bio === DEFAULT_BIO ? "" : p.bio,
  tagline: p.tagline ?? "",
  genre: p.genre,
  authorPhotoUrl: p.authorPhotoUrl ?? "",
  writingJourney: p.writingJourney,
});

/** Visible characters, for the counter; the limit itself is on the HTML the server receives. */
const textLength = (html: string) => html.replace(/<[^>]*>/g, "").replace(/&[a-z#0-9]+;/gi, " ").length;

function BioForm({ initial }: { initial: Profile }) {
  const qc = useQueryClient();
  const subdomain = useSubdomain().data ?? null;
  const form = useZodForm(profileUpdateSchema, toValues(initial));
  const { register, control, handleSubmit, reset, formState, getValues } = form;
  const errors = formState.errors;

  const save = useMutation({
    mutationFn: ({ body }: { body: Parameters<typeof saveProfile>[0]; intent: Intent }) => saveProfile(body),
    onSuccess: (saved, { intent }) => {
      qc.setQueryData(PROFILE_KEY, saved);
      toast.success(BIO_MESSAGES.saved);
      if (intent === "view" && subdomain) {
        // The preview is rendered by the server, not the SPA, so this is a real page load.
        window.location.assign(`/author/${encodeURIComponent(subdomain)}/about`);
        return;
      }
      reset(toValues(saved));
    },
    onError: (err) => {
      // Only the fields on this screen; a refusal of another profile field is in the toast.
      if (err instanceof ApiError && err.field && err.field in getValues()) setServerFieldError(form, err);
      toast.error(BIO_MESSAGES.failed, { description: errorMessage(err) });
    },
  });

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const intent: Intent = submitter?.value === "view" ? "view" : "save";
    return handleSubmit(
      (body) => save.mutate({ body, intent }),
      (found) => toast.error(BIO_MESSAGES.failed, { description: Object.values(found)[0]?.message }),
    )(e);
  }

  const busy = save.isPending;
  const photoUrl = form.watch("authorPhotoUrl") ?? "";
  /** An upload or removal is saved at once: the screen takes the new photo without losing edits. */
  function photoChanged(saved: Profile, message: string) {
    qc.setQueryData(PROFILE_KEY, saved);
    form.setValue("authorPhotoUrl", saved.authorPhotoUrl ?? "", { shouldDirty: false });
    toast.success(message);
  }
  const length = textLength(form.watch("bio") ?? "");

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <PageHeading title="Author Bio" description="Tell readers who you are. This is your site's About page.">
        <div className="flex flex-wrap gap-2">
          {subdomain ? (
            <Button type="submit" name="intent" value="view" variant="secondary" disabled={busy}>
              <ExternalLink aria-hidden="true" className="h-4 w-4" /> Save &amp; View
            </Button>
          ) : null}
          <SaveButton name="intent" value="save" busy={busy}>
            Save Bio
          </SaveButton>
        </div>
      </PageHeading>

      <Card>
        <CardContent>
          <RichTextField
            control={control}
            name="bio"
            id="bio-bio"
            label="Bio"
            aside={
              <span className="text-xs text-slate-500" aria-live="polite">
                {length.toLocaleString()} characters
              </span>
            }
            hint="Bold, italic, lists and links. Pasted text arrives without its formatting."
            error={errors.bio?.message}
            minHeight="min-h-64"
          />
        </CardContent>
      </Card>

      <Card>
        <CardContent className="space-y-4">
          <div>
            <h2 className="text-base font-semibold text-slate-900">Shown with your bio</h2>
            <p className="mt-1 text-sm text-slate-600">Author tagline and photo are optional.</p>
          </div>
          <Field
            id="bio-tagline"
            label="Author tagline"
            hint="A line under your name on the About page; your home page and footer use it too unless Site Settings has a site tagline."
            placeholder="e.g. Cosy mysteries with sharp edges"
            maxLength={PROFILE_LIMITS.tagline}
            error={errors.tagline?.message}
            {...register("tagline")}
          />
          <Field
            id="bio-genre"
            label="Main genre"
            hint="Shown above your name on the About page; leave it empty to show none."
            list="bio-genre-suggestions"
            placeholder="e.g. Psychological thriller"
            maxLength={PROFILE_LIMITS.genre}
            error={errors.genre?.message}
            {...register("genre")}
          />
          <datalist id="bio-genre-suggestions">
            {GENRES.map((g) => (
              <option key={g} value={g} />
            ))}
          </datalist>
          <ImageUpload
            label="Photo"
            shape="square"
            currentUrl={photoUrl || null}
            maxBytes={PHOTO_MAX_BYTES}
            hint={`JPEG, PNG or WebP, up to ${PHOTO_MAX_BYTES / MB} MB. Cropped square around your face; without one, your initials are shown.`}
            upload={async (file) => photoChanged(await uploadPhoto(file), "Photo uploaded")}
            remove={async () => photoChanged(await removePhoto(), "Photo removed")}
          />
          {/* An uploaded photo's address is ours: the field is for a link to a photo elsewhere. */}
          {!UPLOAD_URL.test(photoUrl) && (
            <Field
              id="bio-authorPhotoUrl"
              label="Or link to a photo"
              type="url"
              inputMode="url"
              hint="An https:// link to a portrait, if it already lives elsewhere."
              placeholder="https://"
              maxLength={PROFILE_LIMITS.photoUrl}
              error={errors.authorPhotoUrl?.message}
              {...register("authorPhotoUrl")}
            />
          )}
        </CardContent>
      </Card>

      <Card>
        <CardContent className="space-y-4">
          <div>
            <h2 className="text-base font-semibold text-slate-900">My Writing Journey</h2>
            <p className="mt-1 text-sm text-slate-600">Milestones shown as cards on your About page, in this order.</p>
          </div>
          <JourneyEditor control={control} register={register} errors={errors.writingJourney} />
        </CardContent>
      </Card>

      <p className="text-sm text-slate-600">
        Social links (Facebook, Instagram and the rest) show on your About and Contact pages and in the footer; edit
        them under{" "}
        <Link to="/dashboard/contact" className="font-medium text-brand-700 underline-offset-4 hover:underline">
          Settings → Contact
        </Link>
        .
      </p>
    </form>
  );
}
