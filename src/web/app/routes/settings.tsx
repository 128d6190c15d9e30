import { ContactSettingsPage } from "../../features/settings/contact-settings-page.tsx";
import { DomainSettingsPage } from "../../features/settings/domain-settings-page.tsx";
import { HomePageSettingsPage } from "../../features/settings/home-page-settings-page.tsx";
import { LegalSettingsPage } from "../../features/settings/legal-settings-page.tsx";
import { NewsletterSettingsPage } from "../../features/settings/newsletter-settings-page.tsx";
import { SettingsPage } from "../../features/settings/settings-page.tsx";

export function SettingsRoute() {
  return <SettingsPage />;
}

export function ContactSettingsRoute() {
  return <ContactSettingsPage />;
}

export function NewsletterSettingsRoute() {
  return <NewsletterSettingsPage />;
}

export function LegalSettingsRoute() {
  return <LegalSettingsPage />;
}

export function HomePageSettingsRoute() {
  return <HomePageSettingsPage />;
}

export function DomainSettingsRoute() {
  return <DomainSettingsPage />;
}
