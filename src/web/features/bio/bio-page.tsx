// 'Author Bio': the words, tagline and photo the public About page shows. Checked with the
// server's own schema before sending; the public page changes as soon as the save lands.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { BIO_MESSAGES, DEFAULT_BIO, PROFILE_LIMITS, profileUpdateSchema } from "../../../shared/schemas/profile.ts";
import { RichTextEditor } from "../../components/rich-text-editor.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { PROFILE_KEY, type Profile, saveProfile, useProfile, useSubdomain } from "./bio-api.ts";

type Values = { bio: string; tagline: string; authorPhotoUrl: string };
type Errors = Partial<Record<keyof Values, string>>;
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
      <Alert tone="error">
        <p>{BIO_MESSAGES.loadFailed}</p>
        <Button className="mt-3" size="sm" variant="secondary" onClick={() => profile.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  return <BioForm initial={profile.data} />;
}

const toValues = (p: Profile): Values => ({
  // The placeholder is the site's, not the author's words: start them on an empty page.
  bio: p.bio === DEFAULT_BIO ? "" : p.bio,
  tagline: p.tagline ?? "",
  authorPhotoUrl: p.authorPhotoUrl ?? "",
});

/** Visible characters, for the counter; the limit itself is on the HTML the server receives. */
const textLength = (html: string) => html.replace(/<[^>]*>/g, "").replace(/&[a-z#0-9]+;/gi, " ").length;

function BioForm({ initial }: { initial: Profile }) {
  const qc = useQueryClient();
  const subdomain = useSubdomain().data ?? null;
  const [values, setValues] = useState<Values>(() => toValues(initial));
  const [errors, setErrors] = useState<Errors>({});
  const set = (key: keyof Values, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };

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
      setValues(toValues(saved));
    },
    onError: (err) => {
      if (err instanceof ApiError && err.field && err.field in values) setErrors({ [err.field]: err.message });
      toast.error(BIO_MESSAGES.failed, { description: errorMessage(err) });
    },
  });

  function submit(intent: Intent) {
    const parsed = profileUpdateSchema.safeParse(values);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Values;
        found[key] ??= issue.message;
      }
      setErrors(found);
      document.getElementById(`bio-${Object.keys(found)[0]}`)?.focus();
      toast.error(BIO_MESSAGES.failed, { description: Object.values(found)[0] });
      return;
    }
    save.mutate({ body: parsed.data, intent });
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    submit(submitter?.value === "view" ? "view" : "save");
  }

  const busy = save.isPending;
  const length = textLength(values.bio);

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Author Bio</h1>
          <p className="mt-1 text-sm text-slate-600">Tell readers who you are. This is your site's About page.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {subdomain ? (
            <Button type="submit" name="intent" value="view" variant="secondary" disabled={busy}>
              <ExternalLink aria-hidden="true" className="h-4 w-4" /> Save &amp; View
            </Button>
          ) : null}
          <Button type="submit" name="intent" value="save" disabled={busy}>
            {busy ? "Saving..." : "Save Bio"}
          </Button>
        </div>
      </div>

      <Card>
        <CardContent className="space-y-1.5">
          <div className="flex items-baseline justify-between gap-3">
            <label htmlFor="bio-bio" className="block text-sm font-medium text-slate-700">
              Bio
            </label>
            <span className="text-xs text-slate-500" aria-live="polite">
              {length.toLocaleString()} characters
            </span>
          </div>
          <RichTextEditor
            id="bio-bio"
            label="Bio"
            minHeight="min-h-64"
            describedBy={errors.bio ? "bio-bio-error" : "bio-bio-hint"}
            value={values.bio}
            onChange={(html) => set("bio", html)}
          />
          {errors.bio ? (
            <p id="bio-bio-error" className="text-sm text-red-700">
              {errors.bio}
            </p>
          ) : (
            <p id="bio-bio-hint" className="text-xs text-slate-500">
              Bold, italic, lists and links. Pasted text arrives without its formatting.
            </p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardContent className="space-y-4">
          <div>
            <h2 className="text-base font-semibold text-slate-900">Shown with your bio</h2>
            <p className="mt-1 text-sm text-slate-600">Both are optional.</p>
          </div>
          <Field
            id="bio-tagline"
            label="Tagline"
            hint="A line under your name on the About page; your home page and footer use it too unless Site Settings has a tagline."
            placeholder="e.g. Cosy mysteries with sharp edges"
            value={values.tagline}
            maxLength={PROFILE_LIMITS.tagline}
            error={errors.tagline}
            onChange={(e) => set("tagline", e.target.value)}
          />
          <Field
            id="bio-authorPhotoUrl"
            label="Profile photo URL"
            type="url"
            inputMode="url"
            hint="An https:// link to a portrait (about 4:5). Without one, your initials are shown."
            placeholder="https://"
            value={values.authorPhotoUrl}
            maxLength={PROFILE_LIMITS.photoUrl}
            error={errors.authorPhotoUrl}
            onChange={(e) => set("authorPhotoUrl", e.target.value)}
          />
        </CardContent>
      </Card>
    </form>
  );
}
