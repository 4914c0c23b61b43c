import type { Metadata } from "next";
import type { ReactNode } from "react";
import { preload } from "react-dom";
import { Providers } from "@/components/providers";
import { TopNav } from "@/components/ui/top-nav";
import { can, NAV_ITEMS } from "@/lib/domain/permissions";
import { optionalActor } from "@/lib/server/pages";
import { isLocale } from "@/lib/i18n";
import { I18nProvider } from "@/lib/i18n/react";
import "./globals.css";
import "./viewer.css";
import "./import.css";
import "./review.css";

export const metadata: Metadata = {
  title: { default: "Trajectory Studio", template: "%s · Trajectory Studio" },
  description: "Correct phone-agent trajectories and export them as training data.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const actor = await optionalActor();
  // The navigation shows only what this person may open; the server still checks every request.
  const links = actor ? NAV_ITEMS.filter((item) => can(actor, item.action)).map(({ href, key }) => ({ href, key })) : [];
  const locale = isLocale(actor?.locale) ? actor.locale : "en";
  // The bundled Chinese faces (app/globals.css) load early for a signed-in person: their data is Chinese in any UI,
  // and a face that arrives after the form fields were painted left them as empty boxes (Chromium does not repaint
  // a textarea's text when a unicode-range face swaps in). Cached by the browser after the first page.
  if (actor) {
    for (const weight of [400, 700])
      preload(`/fonts/studio-ui-sc-${weight}.woff2`, { as: "font", type: "font/woff2", crossOrigin: "anonymous" });
  }
  return (
    <html lang={locale === "zh" ? "zh-CN" : "en"}>
      <body>
        <I18nProvider locale={locale}>
          <Providers>
            {actor && <TopNav links={links} person={{ email: actor.email, name: actor.name, role: actor.role }} />}
            {children}
          </Providers>
        </I18nProvider>
      </body>
    </html>
  );
}
