import type { Metadata } from "next";
import { ProjectGold } from "@/components/admin/project-gold";
import { ProjectLanes } from "@/components/admin/project-lanes";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";
import "../admin.css";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage() {
  const actor = await pageActor("/admin/projects", "project.configure");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page admin-page">
      <div className="page-head">
        <h1>{t("lane.admin.pageTitle")}</h1>
        <span className="sub">{t("projects.pageSub")}</span>
      </div>
      <ProjectLanes />
      <ProjectGold />
    </main>
  );
}
