// For a service or job called on its own, without a server's outbox: the mails it hands over are
// kept in order in `sent`, as the service made them.
import type { Mail, MailSender } from "../server/modules/mail/mail.service.ts";

export function mailRecorder(): MailSender & { sent: Mail[] } {
  const sent: Mail[] = [];
  return {
    sent,
    send: async (m) => {
      sent.push(m);
    },
  };
}
