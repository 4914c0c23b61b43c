"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { NavKey, Role } from "@/lib/domain/permissions";
import { useT } from "@/lib/i18n/react";

type Props = {
  links: { href: string; key: NavKey }[];
  person: { email: string; name: string; role: Role };
};

export function TopNav({ links, person }: Props) {
  const pathname = usePathname();
  const t = useT();
  async function signOut() {
    await fetch("/api/auth/sign-out", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    // A whole new page on purpose: nothing of the person who left (the query cache, the editor's state) survives.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign("/sign-in");
  }
  return (
    <header className="topnav">
      <Link href="/trajectories" className="brand" style={{ textDecoration: "none" }}>
        <span className="brand-mark" aria-hidden />
        Trajectory Studio
      </Link>
      <nav aria-label={t("nav.main")}>
        {links.map((l) => (
          <Link key={l.href} href={l.href} aria-current={pathname.startsWith(l.href) ? "page" : undefined}>
            {t(`nav.${l.key}`)}
          </Link>
        ))}
      </nav>
      <div className="topnav-person">
        <Link href="/account" title={t("nav.account")}>
          <span data-i18n="data">{person.name}</span> <span className="role-chip">{t(`role.${person.role}`)}</span>
        </Link>
        <button type="button" className="btn btn-ghost" onClick={signOut}>
          {t("nav.signOut")}
        </button>
      </div>
    </header>
  );
}
