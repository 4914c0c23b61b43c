import { problemOf, type ImportProblemCode, type ProblemParams } from "@/lib/domain/problems";
import { AppError } from "./errors";

/**
 * A screenshot the import cannot use (missing, unreadable, too large): a 422 whose `problem` carries
 * the import problem's code and parameters, so the import page words it in the person's language.
 */
export class ImageProblem extends AppError {
  readonly problem: ReturnType<typeof problemOf>;
  constructor(code: ImportProblemCode, params: ProblemParams) {
    const problem = problemOf(code, params);
    super("unprocessable", problem.message);
    this.problem = problem;
  }
}
