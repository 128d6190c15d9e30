export { ContactSettingsPage as ContactSettingsRoute } from "../../features/settings/contact-settings-page.tsx";
export { DomainSettingsPage as DomainSettingsRoute } from "../../features/settings/domain-settings-page.tsx";
export { HomePageSettingsPage as HomePageSettingsRoute } from "../../features/settings/home-page-settings-page.tsx";
export { LegalSettingsPage as LegalSettingsRoute } from "../../features/settings/legal-settings-page.tsx";
export { NewsletterSettingsPage as NewsletterSettingsRoute } from "../../features/settings/newsletter-settings-page.tsx";
export { SettingsPage as SettingsRoute } from "../../features/settings/settings-page.tsx";
