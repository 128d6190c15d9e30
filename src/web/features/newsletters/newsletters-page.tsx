// 'Newsletters' (issue 32): the author writes to their confirmed subscribers in the post editor,
// previews it at desktop and phone widths, sends themselves a test, then sends now or schedules.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Mail, Plus, Send } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import {
  NEWSLETTER_LIMITS,
  type NewsletterCreate,
  newsletterCreateSchema,
} from "../../../shared/schemas/newsletter.ts";
import { RichTextField, uploadedImages } from "../../components/rich-text-field.tsx";
import { SwitchField } from "../../components/switch-field.tsx";
import { Alert } from "../../components/ui/alert.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Card, CardContent } from "../../components/ui/card.tsx";
import { EmptyState } from "../../components/ui/empty-state.tsx";
import { Field } from "../../components/ui/field.tsx";
import { Input } from "../../components/ui/input.tsx";
import { LoadingBox } from "../../components/ui/loading-box.tsx";
import { PageHeading } from "../../components/ui/page-heading.tsx";
import { SaveButton } from "../../components/ui/save-button.tsx";
import { Switch } from "../../components/ui/switch.tsx";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { useBookChoices } from "../../lib/book-choices.ts";
import { useZodForm } from "../../lib/use-zod-form.ts";
import { DeleteNewsletter } from "./newsletter-delete.tsx";
import { NewsletterFigures } from "./newsletter-figures.tsx";
import { NewsletterPreview } from "./newsletter-preview.tsx";
import {
  cancelNewsletter,
  createNewsletter,
  NEWSLETTERS_KEY,
  type Newsletter,
  sendNewsletter,
  sendTest,
  updateNewsletter,
  uploadImage,
  useNewsletters,
} from "./newsletters-api.ts";

const IMAGES = uploadedImages(uploadImage);

const STATUS_LABEL: Record<Newsletter["status"], string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  sending: "Sending",
  sent: "Sent",
};

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) : "";

type Mode = { kind: "list" } | { kind: "edit"; newsletter: Newsletter | null };

export function NewslettersPage() {
  const [mode, setMode] = useState<Mode>({ kind: "list" });
  const show = (next: Mode) => {
    setMode(next);
    window.scrollTo({ top: 0 });
  };
  if (mode.kind === "edit") {
    return (
      <NewsletterEditor
        key={mode.newsletter?.id ?? "new"}
        newsletter={mode.newsletter}
        onBack={() => show({ kind: "list" })}
      />
    );
  }
  return (
    <NewsletterList
      onNew={() => show({ kind: "edit", newsletter: null })}
      onOpen={(n) => show({ kind: "edit", newsletter: n })}
    />
  );
}

function NewsletterList({ onNew, onOpen }: { onNew: () => void; onOpen: (n: Newsletter) => void }) {
  const list = useNewsletters();
  return (
    <div className="space-y-6">
      <PageHeading title="Newsletters" description="Write to the readers who confirmed their subscription.">
        <Button onClick={onNew}>
          <Plus aria-hidden="true" className="h-4 w-4" /> New Newsletter
        </Button>
      </PageHeading>
      {list.data?.sendingPaused ? (
        <Alert tone="warning">
          <strong className="font-semibold">Sending is paused for your account.</strong> Nothing you send or schedule
          goes out, and mails already on their way wait. Please contact support.
        </Alert>
      ) : null}
      {list.isPending ? (
        <LoadingBox className="h-24" />
      ) : list.isError ? (
        <Alert tone="error">{errorMessage(list.error)}</Alert>
      ) : list.data.newsletters.length === 0 ? (
        <EmptyState icon={Mail} title="No newsletters yet">
          Tell your readers what you are working on.
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Newsletters">
          {list.data.newsletters.map((n) => (
            <li key={n.id}>
              <Card className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0 flex-1">
                  <p className="text-xs text-slate-500">
                    <span className="font-medium text-slate-700">{STATUS_LABEL[n.status]}</span>
                    {n.scheduledAt ? ` · ${when(n.scheduledAt)}` : ""}
                    {n.recipients !== null ? ` · ${n.recipients} readers` : ""}
                  </p>
                  <h2 className="mt-1 break-words text-base font-semibold text-slate-900">{n.subject}</h2>
                  {n.error ? <p className="mt-1 text-sm text-red-700">{n.error}</p> : null}
                </div>
                <Button variant="secondary" size="sm" onClick={() => onOpen(n)} aria-label={`Open "${n.subject}"`}>
                  Open
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function NewsletterEditor({ newsletter, onBack }: { newsletter: Newsletter | null; onBack: () => void }) {
  const qc = useQueryClient();
  const [current, setCurrent] = useState<Newsletter | null>(newsletter);
  const editable = !current || current.status === "draft" || current.status === "scheduled";
  const books = useBookChoices();
  const form = useZodForm(newsletterCreateSchema, {
    subject: current?.subject ?? "",
    content: current?.content ?? "",
    publishAsPost: current?.publishAsPost ?? false,
    countClicks: current?.countClicks ?? false,
  });
  const { register, control, handleSubmit, formState, setError, getValues, watch, setValue } = form;
  const errors = formState.errors;
  const [at, setAt] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const changed = (n: Newsletter) => {
    setCurrent(n);
    void qc.invalidateQueries({ queryKey: NEWSLETTERS_KEY });
  };
  const fail = (err: unknown) => {
    setProblem(errorMessage(err));
    if (err instanceof ApiError && err.field && err.field in getValues()) {
      setError(err.field as keyof NewsletterCreate, { type: "server", message: err.message });
    }
    toast.error(errorMessage(err));
  };

  const save = useMutation({
    mutationFn: (body: NewsletterCreate) => (current ? updateNewsletter(current.id, body) : createNewsletter(body)),
    onSuccess: (n) => {
      setProblem(null);
      changed(n);
      toast.success("Newsletter saved");
    },
    onError: fail,
  });
  const test = useMutation({
    mutationFn: (id: string) => sendTest(id),
    onSuccess: (to) => toast.success(`Test sent to ${to}`),
    onError: fail,
  });
  const send = useMutation({
    mutationFn: (v: { id: string; at?: string }) => sendNewsletter(v.id, v.at),
    onSuccess: (n) => {
      setProblem(null);
      changed(n);
      toast.success(n.status === "scheduled" ? `Scheduled for ${when(n.scheduledAt)}` : "Sending to your readers");
    },
    onError: fail,
  });
  const cancel = useMutation({
    mutationFn: (id: string) => cancelNewsletter(id),
    onSuccess: changed,
    onError: fail,
  });

  const onSave = handleSubmit((body) => save.mutate(body));
  const busy = save.isPending || send.isPending || test.isPending || cancel.isPending;

  return (
    <div className="space-y-6">
      <PageHeading
        title={current ? "Edit Newsletter" : "New Newsletter"}
        description={
          current
            ? `${STATUS_LABEL[current.status]}${current.scheduledAt ? ` · ${when(current.scheduledAt)}` : ""}`
            : "Only readers who confirmed get it."
        }
      >
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={onBack}>
            Back to newsletters
          </Button>
          {current ? <DeleteNewsletter newsletter={current} onDeleted={onBack} /> : null}
        </div>
      </PageHeading>

      {problem ? <Alert tone="error">{problem}</Alert> : null}

      <form noValidate onSubmit={onSave} className="space-y-6" aria-label="Newsletter">
        <Card>
          <CardContent className="space-y-5">
            <Field
              id="newsletter-subject"
              label="Subject"
              maxLength={NEWSLETTER_LIMITS.subject}
              disabled={!editable}
              error={errors.subject?.message}
              {...register("subject")}
            />
            <RichTextField
              control={control}
              name="content"
              id="newsletter-content"
              label="Message"
              error={errors.content?.message}
              minHeight="min-h-64"
              images={IMAGES}
              books={books}
              invalid={Boolean(errors.content)}
            />
            <Switch
              label="Also publish on my blog"
              description="When it goes out, it also appears on your site's Blog page."
              checked={watch("publishAsPost") ?? false}
              disabled={!editable}
              onChange={(v) => setValue("publishAsPost", v, { shouldDirty: true })}
            />
            <SwitchField
              control={control}
              name="countClicks"
              label="Count clicks"
              description="Links go through your site, which counts how many readers follow each. No tracking pixel: opening the mail is not counted."
              disabled={!editable}
            />
          </CardContent>
        </Card>
        {editable ? (
          <div className="flex flex-wrap justify-end gap-3">
            <SaveButton busy={save.isPending} disabled={busy}>
              Save draft
            </SaveButton>
          </div>
        ) : null}
      </form>

      <NewsletterPreview subject={watch("subject")} content={watch("content")} />

      {current ? (
        <Card>
          <CardContent className="space-y-4">
            <h2 className="text-lg font-semibold text-slate-900">Send</h2>
            {current.status === "draft" || current.status === "scheduled" ? (
              <>
                <p className="text-sm text-slate-600">Save first: what is saved is what goes.</p>
                <div className="flex flex-wrap gap-3">
                  <Button variant="secondary" disabled={busy} onClick={() => test.mutate(current.id)}>
                    <Mail aria-hidden="true" className="h-4 w-4" /> Send me a test
                  </Button>
                  <Button disabled={busy} onClick={() => send.mutate({ id: current.id })}>
                    <Send aria-hidden="true" className="h-4 w-4" /> Send now
                  </Button>
                </div>
                <div className="flex flex-wrap items-end gap-3">
                  <Field id="newsletter-at" label="Or send at">
                    <Input type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} />
                  </Field>
                  <Button
                    variant="secondary"
                    disabled={busy || !at}
                    onClick={() => send.mutate({ id: current.id, at: new Date(at).toISOString() })}
                  >
                    Schedule
                  </Button>
                  {current.status === "scheduled" ? (
                    <Button variant="secondary" disabled={busy} onClick={() => cancel.mutate(current.id)}>
                      Cancel schedule
                    </Button>
                  ) : null}
                </div>
              </>
            ) : (
              <NewsletterFigures id={current.id} countClicks={current.countClicks} />
            )}
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
