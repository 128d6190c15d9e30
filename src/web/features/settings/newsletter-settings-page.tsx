// 'Newsletter': either the author's email provider's sign-up embed, or the site's own sign-up
// form whose confirmed readers are listed here and can be exported for any mailing tool.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Download, Users } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import {
  EMBED_WARNING,
  looksLikeEmbedCode,
  NEWSLETTER_MESSAGES,
  type NewsletterSettings,
  newsletterSettingsSchema,
} from "../../../shared/schemas/newsletter-settings.ts";
import { SwitchField } from "../../components/switch-field.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Label } from "../../components/ui/label.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { SITE_STATUS_KEY } from "../../lib/account-state.ts";
import { client, errorMessage, read } from "../../lib/api.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { MagnetPanel } from "./magnet-panel.tsx";
import { NewsletterListSettings } from "./newsletter-list-settings.tsx";
import { SettingsLoader } from "./settings-loader.tsx";
import { useSaveSettings } from "./settings-screen.tsx";
import { SettingsTabs } from "./settings-tabs.tsx";

const NEWSLETTER_KEY = ["newsletter-settings"] as const;
const SUBSCRIBERS_KEY = ["newsletter-subscribers"] as const;

export function NewsletterSettingsPage() {
  return (
    <>
      <SettingsTabs />
      <NewsletterSettingsPageBody />
    </>
  );
}

function NewsletterSettingsPageBody() {
  const settings = useQuery({
    queryKey: NEWSLETTER_KEY,
    queryFn: () => read(client.site.newsletter.$get()),
  });
  return (
    <div className="space-y-6">
      <PageHeading
        title="Newsletter"
        description="How readers sign up on your site's Newsletter page. Turn the page on or off under Site."
      />
      <SettingsLoader query={settings} height="h-64">
        {(data) => <EmbedForm initial={data} />}
      </SettingsLoader>
      {settings.data && !settings.data.embedCode ? <OwnFormShown /> : null}
      <NewsletterListSettings />
      <Subscribers />
      <MagnetPanel />
    </div>
  );
}

// The screen holds a choice and a draft; switching the provider off keeps the draft on screen
// but saves an empty code, which the spec says removes the saved one.
const embedFormSchema = z
  .object({ useProvider: z.boolean(), code: z.string() })
  .transform((v): { embedCode: string | null } => ({ embedCode: v.useProvider ? v.code.trim() : "" }))
  .pipe(newsletterSettingsSchema);

function EmbedForm({ initial }: { initial: NewsletterSettings }) {
  const form = useZodForm(embedFormSchema, { useProvider: initial.embedCode !== null, code: initial.embedCode ?? "" });
  const { control, register, handleSubmit, formState, clearErrors } = form;
  const useProvider = form.watch("useProvider");
  const trimmed = form.watch("code").trim();
  const firstError = Object.values(formState.errors)[0];
  const error = firstError ? (firstError.message ?? EMBED_WARNING) : null;
  const warning = useProvider && trimmed !== "" && !looksLikeEmbedCode(trimmed) ? EMBED_WARNING : null;
  // The spec: with the provider's form chosen, there is nothing to save until a code is pasted.
  const cannotSave = useProvider && trimmed === "";

  const save = useSaveSettings({
    queryKey: NEWSLETTER_KEY,
    save: (body: NewsletterSettings) => read(client.site.newsletter.$put({ json: body })),
    messages: NEWSLETTER_MESSAGES,
  });

  return (
    <Card>
      <CardContent>
        <form noValidate onSubmit={handleSubmit((data) => save.mutate(data))} className="space-y-4">
          <SwitchField
            control={control}
            name="useProvider"
            label="Use my email provider's sign-up form"
            description="Off: readers sign up with your site's own form and confirm by email; they are listed below."
            // The refusal is about the code as it was sent, whichever field is edited.
            onChange={() => clearErrors()}
          />
          {useProvider ? (
            <div className="space-y-1.5">
              <Label htmlFor="embed-code">Embed code</Label>
              <textarea
                id="embed-code"
                rows={8}
                spellCheck={false}
                aria-invalid={error || warning ? true : undefined}
                aria-describedby="embed-help"
                {...register("code", { onChange: () => clearErrors() })}
                placeholder='<form action="https://..."> ... </form>'
                className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-invalid:border-amber-500"
              />
              <p id="embed-help" className={error || warning ? "text-sm text-amber-800" : "text-xs text-slate-500"}>
                {error ??
                  warning ??
                  "Paste the complete HTML form or script your provider gives you. It runs in a sealed frame, so it cannot touch the rest of your site."}
              </p>
            </div>
          ) : null}
          <div className="flex justify-end">
            <SaveButton busy={save.isPending} disabled={cannotSave}>
              Save Newsletter Settings
            </SaveButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/**
 * Without a provider's form the Newsletter page stays out of the menu until the author chooses to
 * show the site's own form (ADR 052): a form nobody chose is placeholder to readers.
 */
function OwnFormShown() {
  const qc = useQueryClient();
  const site = useQuery({ queryKey: ["site-settings"], queryFn: () => read(client.site.settings.$get()) });
  const chosen = site.data?.showWhenEmpty ?? [];
  const on = chosen.includes("newsletter");
  const save = useMutation({
    mutationFn: (show: boolean) =>
      read(
        client.site.settings.$patch({
          json: {
            showWhenEmpty: show
              ? [...chosen.filter((k) => k !== "newsletter"), "newsletter"]
              : chosen.filter((k) => k !== "newsletter"),
          },
        }),
      ),
    onSuccess: (saved) => {
      qc.setQueryData(["site-settings"], saved);
      void qc.invalidateQueries({ queryKey: SITE_STATUS_KEY });
      toast.success(NEWSLETTER_MESSAGES.saved);
    },
    onError: (err) => toast.error(NEWSLETTER_MESSAGES.failed, { description: errorMessage(err) }),
  });
  if (!site.data) return null;
  return (
    <Card>
      <CardContent>
        <Switch
          label="Show the Newsletter page with your site's own sign-up form"
          description={
            site.data.newsletterEnabled
              ? "Off: the Newsletter page is not in your site's menu until you paste a provider's form."
              : "The Newsletter page is switched off under Site, so readers do not see it either way."
          }
          checked={on}
          disabled={save.isPending}
          onChange={(v) => save.mutate(v)}
        />
      </CardContent>
    </Card>
  );
}

/** The list itself is the Subscribers screen; here its counts and the way there. */
function Subscribers() {
  const list = useQuery({
    queryKey: [...SUBSCRIBERS_KEY, { page: 1 }],
    queryFn: () => read(client.newsletter.subscribers.$get({ query: { page: "1" } })),
  });
  const counts = list.data?.counts;

  return (
    <Card>
      <CardContent>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h2 className="text-base font-semibold text-slate-900">Your subscribers</h2>
            <p className="text-sm text-slate-600" data-testid="subscriber-count">
              {list.isError
                ? errorMessage(list.error)
                : counts
                  ? `${counts.confirmed.toLocaleString("en-GB")} confirmed, ${counts.pending.toLocaleString("en-GB")} waiting to confirm`
                  : "Loading..."}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="secondary" size="sm">
              <a href="/api/newsletter/subscribers.csv" download>
                <Download aria-hidden="true" className="h-4 w-4" /> Export CSV
              </a>
            </Button>
            <Button asChild size="sm">
              <Link to="/dashboard/subscribers">
                <Users aria-hidden="true" className="h-4 w-4" /> See and import subscribers
              </Link>
            </Button>
          </div>
        </div>
      </CardContent>
    </Card>
  );
}
