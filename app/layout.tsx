import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "@/components/providers";
import { TopNav } from "@/components/ui/top-nav";
import "./globals.css";
import "./viewer.css";
import "./import.css";

export const metadata: Metadata = {
  title: { default: "Trajectory Studio", template: "%s · Trajectory Studio" },
  description: "Correct phone-agent trajectories and export them as training data.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <Providers>
          <TopNav />
          {children}
        </Providers>
      </body>
    </html>
  );
}
