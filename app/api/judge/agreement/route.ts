// GET /api/judge/agreement: the model judge against people over reviewed trajectories (confusion matrix, kappa, per app, disagreements)
import { judgeAgreementSchema } from "@/lib/domain/model";
import { judgeAgreement } from "@/lib/server/model";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "trajectory.review",
  output: judgeAgreementSchema,
  handler: ({ actor }) => judgeAgreement({ actor }),
});
