// 'Contact Settings': where the site's contact form sends messages, whether the form and its
// anti-spam are on, and the author's social links, one row per platform. A contact address other
// than the account's receives messages only once verified by a mailed link (ADR 014).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CircleCheck, MailWarning } from "lucide-react";
import { toast } from "sonner";
import { SOCIAL_PLATFORMS } from "../../../shared/enums.ts";
import {
  CONTACT_MESSAGES,
  type ContactSettings,
  type ContactSettingsView,
  contactSettingsSchema,
  PLATFORM_LABELS,
} from "../../../shared/schemas/contact-settings.ts";
import { SwitchField } from "../../components/switch-field.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { Field } from "../../components/ui/field.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { client, errorMessage, read } from "../../lib/api.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { SettingsScreen, useSaveSettings } from "./settings-screen.tsx";

const CONTACT_KEY = ["contact-settings"] as const;

type Platform = (typeof SOCIAL_PLATFORMS)[number];
type Row = { platform: Platform; url: string; enabled: boolean };

/** Every platform gets a row; what the author never filled in stays off and empty. */
function rowsFrom(saved: ContactSettings["socialLinks"]): Row[] {
  return SOCIAL_PLATFORMS.map((platform) => {
    const found = saved.find((l) => l.platform === platform);
    return { platform, url: found?.url ?? "", enabled: found?.enabled ?? false };
  });
}

export function ContactSettingsPage() {
  return (
    <SettingsScreen queryKey={CONTACT_KEY} queryFn={() => read(client.site.contact.$get())} height="h-96">
      {(data) => <ContactForm initial={data} />}
    </SettingsScreen>
  );
}

function ContactForm({ initial }: { initial: ContactSettingsView }) {
  const form = useZodForm(contactSettingsSchema, {
    contactEmail: initial.contactEmail ?? "",
    enableContactForm: initial.enableContactForm,
    antispamEnabled: initial.antispamEnabled,
    socialLinks: rowsFrom(initial.socialLinks),
  });
  const { register, control, handleSubmit, formState } = form;
  const errors = formState.errors;
  // A refusal of the list as a whole (not of one row) is shown above the rows.
  const socialLinksError = errors.socialLinks?.message ?? errors.socialLinks?.root?.message;
  const email = form.watch("contactEmail") ?? "";

  const save = useSaveSettings({
    queryKey: CONTACT_KEY,
    save: (body: ContactSettings) => read(client.site.contact.$put({ json: body })),
    messages: CONTACT_MESSAGES,
    form,
  });

  // Every platform is checked as shown (a row left empty and off passes); only rows with
  // something in them are sent, in the order shown.
  const onSubmit = handleSubmit((data) =>
    save.mutate({ ...data, socialLinks: data.socialLinks.filter((r) => r.enabled || r.url !== "") }),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <PageHeading title="Contact Settings" description="How readers reach you from your site's Contact page.">
        <SaveButton busy={save.isPending}>Save Contact Settings</SaveButton>
      </PageHeading>

      <Card>
        <CardContent className="space-y-4">
          <h2 className="text-base font-semibold text-slate-900">Messages</h2>
          <Field
            id="contact-email"
            type="email"
            label="Contact email"
            hint="Messages from your contact form go here once you confirm the address from the link we mail to it; until then, and when empty, they go to your account email. Readers see it masked."
            maxLength={254}
            error={errors.contactEmail?.message}
            {...register("contactEmail")}
          />
          <ContactEmailStatus view={initial} typed={email} />
          <div className="divide-y divide-slate-100">
            <SwitchField
              control={control}
              name="enableContactForm"
              label="Contact form"
              description="Readers can send you a message from your site"
            />
            <SwitchField
              control={control}
              name="antispamEnabled"
              label="Anti-spam"
              description="A hidden trap for bots and at most 5 messages an hour from one sender"
            />
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <h2 className="text-base font-semibold text-slate-900">Social links</h2>
          <p className="mt-1 text-sm text-slate-600">
            Switched-on links appear on your Contact page and in your site's footer.
          </p>
          {socialLinksError ? <p className="mt-2 text-sm text-red-700">{socialLinksError}</p> : null}
          <ul className="mt-4 space-y-3">
            {SOCIAL_PLATFORMS.map((platform, i) => {
              const id = `social-${platform}`;
              const error = errors.socialLinks?.[i]?.url?.message;
              return (
                <li key={platform} className="grid gap-2 sm:grid-cols-[8rem_1fr_auto] sm:items-start">
                  <label htmlFor={id} className="pt-2 text-sm font-medium text-slate-800">
                    {PLATFORM_LABELS[platform]}
                  </label>
                  <div>
                    <input
                      id={id}
                      type={platform === "email" ? "email" : "url"}
                      placeholder={platform === "email" ? "you@example.com" : "https://"}
                      maxLength={500}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                      {...register(`socialLinks.${i}.url`)}
                      className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 aria-invalid:border-red-500"
                    />
                    {error ? (
                      <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
                        {error}
                      </p>
                    ) : null}
                  </div>
                  <label className="flex items-center gap-2 pt-2 text-sm text-slate-700">
                    <input
                      type="checkbox"
                      {...register(`socialLinks.${i}.enabled`)}
                      className="h-4 w-4 accent-brand-600"
                      aria-label={`Show ${PLATFORM_LABELS[platform]}`}
                    />
                    Show
                  </label>
                </li>
              );
            })}
          </ul>
          <p className="mt-4 text-xs text-slate-500">
            Your email is never shown as a social button; readers use the contact form or the masked address.
          </p>
        </CardContent>
      </Card>
    </form>
  );
}

const sameAddress = (a: string | null, b: string | null) =>
  (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();

/** Where messages go today; shown for the saved address only (an edited one is not saved yet). */
function ContactEmailStatus({ view, typed }: { view: ContactSettingsView; typed: string }) {
  const qc = useQueryClient();
  const resend = useMutation({
    mutationFn: () => read(client.site.contact.verification.$post()),
    onSuccess: (saved) => {
      qc.setQueryData(CONTACT_KEY, saved);
      toast.success(CONTACT_MESSAGES.resent, { description: `We sent a new link to ${saved.contactEmail}.` });
    },
    onError: (err) => toast.error(CONTACT_MESSAGES.resendFailed, { description: errorMessage(err) }),
  });

  if (!sameAddress(typed, view.contactEmail)) {
    if (typed.trim() === "" || sameAddress(typed, view.accountEmail)) return null;
    return (
      <p className="text-sm text-slate-600" data-testid="contact-email-status">
        When you save, we will mail a link to this address. Messages go to it once the link is opened.
      </p>
    );
  }
  if (view.contactEmailState === "pending") {
    return (
      <Alert tone="warning" data-testid="contact-email-status">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex gap-2">
            <MailWarning aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
            <div>
              <p className="font-medium">Verification pending — we sent a link to {view.contactEmail}</p>
              <p className="mt-1">
                Until the link is opened, messages from your contact form go to your account email, {view.accountEmail}.
              </p>
            </div>
          </div>
          <Button variant="secondary" size="sm" disabled={resend.isPending} onClick={() => resend.mutate()}>
            {resend.isPending ? "Sending..." : "Resend link"}
          </Button>
        </div>
      </Alert>
    );
  }
  if (view.contactEmailState === "verified") {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-700" data-testid="contact-email-status">
        <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-medium text-emerald-700">
          <CircleCheck aria-hidden="true" className="h-3.5 w-3.5" />
          Verified
        </span>
        Messages from your contact form go to {view.contactEmail}.
      </p>
    );
  }
  return (
    <p className="text-sm text-slate-600" data-testid="contact-email-status">
      Messages from your contact form go to your account email, {view.accountEmail}.
    </p>
  );
}
