// The studio's production server: `npm start` (and `npm run demo`, the browser tests, the bench).
// One Node HTTP server in front of Next: /api/* is answered by the API lane (server/api-lane.ts: the
// app/api route handlers, called directly), everything else by Next's request handler (pages, static
// files, and whatever the lane leaves to Next). STUDIO_API_LANE=next sends the API through Next too.
//
//   PORT (3000), STUDIO_HOST (127.0.0.1; 0.0.0.0 to listen on every interface); the studio's own settings as everywhere (DATABASE_URL, STUDIO_DATA_DIR ...).
//   STUDIO_WORKERS (1): processes sharing the port (Node's cluster), each a whole studio instance like the
//   instances of docs/DEPLOY.md; more than one uses more than one core. If one stops, all stop (a supervisor
//   such as systemd or compose restarts the studio), so no instance keeps serving half a studio.
import cluster from "node:cluster";
import { createServer } from "node:http";
import path from "node:path";
import { parseEnv } from "@/lib/server/env";
import { apiLaneListener, loadApiRoutes, type ApiRoute } from "./api-lane";

const ROOT = path.resolve(import.meta.dirname, "..");
// Every variable is checked before anything starts: a bad value stops the server here, naming the variable.
const settings = parseEnv();
const port = settings.PORT ?? 3000;
const hostname = settings.STUDIO_HOST ?? "127.0.0.1";
const workers = settings.STUDIO_WORKERS ?? 1;
const lane = settings.STUDIO_API_LANE ?? "studio";

if (workers > 1 && cluster.isPrimary) {
  console.log(`▸ starting ${workers} studio workers on http://${hostname}:${port}`);
  for (let i = 0; i < workers; i++) cluster.fork();
  let listening = 0;
  cluster.on("listening", () => {
    if (++listening === workers) console.log(`▸ all ${workers} studio workers answer on http://${hostname}:${port}`);
  });
  let stopping = false;
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    stopping = true;
    console.error(`studio: worker ${worker.process.pid} stopped (${signal ?? `exit ${code}`}); stopping the others`);
    for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    process.exit(code || 1);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.kill(signal);
      process.exit(0);
    });
  }
} else {
  await serve();
}

async function serve() {
  // What `next start` sets before it loads anything.
  (process.env as Record<string, string>).NODE_ENV = "production";
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  const { default: next } = await import("next");

  const app = next({ dev: false, dir: ROOT, hostname, port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const routes: ApiRoute[] = lane === "studio" ? await loadApiRoutes(path.join(ROOT, "app")) : [];

  const server = createServer(apiLaneListener(routes, handle, { port, hostname }));
  server.listen(port, hostname, () => {
    console.log(
      `▸ the studio answers on http://${hostname}:${port} (API lane: ${lane === "studio" ? `${routes.length} routes served directly` : "Next"})`,
    );
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      server.close();
      process.exit(0);
    });
  }
}
