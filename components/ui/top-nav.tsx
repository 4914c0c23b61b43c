"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/trajectories", label: "Trajectories" },
  { href: "/import", label: "Import" },
];

export function TopNav() {
  const pathname = usePathname();
  return (
    <header className="topnav">
      <Link href="/trajectories" className="brand" style={{ textDecoration: "none" }}>
        <span className="brand-mark" aria-hidden />
        Trajectory Studio
      </Link>
      <nav aria-label="Main">
        {LINKS.map((l) => (
          <Link key={l.href} href={l.href} aria-current={pathname.startsWith(l.href) ? "page" : undefined}>
            {l.label}
          </Link>
        ))}
      </nav>
    </header>
  );
}
