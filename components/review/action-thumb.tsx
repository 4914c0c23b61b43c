import type { Box, Point } from "@/lib/domain/geometry";
import { pointsOf, type ToolCall } from "@/lib/domain/tool-call";
import { screenshotUrl } from "@/lib/queries/trajectories";

type Props = { sha256: string; width: number; height: number; original: ToolCall; corrected: ToolCall; box: Box | null };

/**
 * The screenshot with the model's action (red, dashed) and the corrected one (green) over it, in
 * original pixels: the SVG's viewBox is the screenshot's own size, so no conversion happens here.
 */
export function ActionThumb({ sha256, width, height, original, corrected, box }: Props) {
  const r = width / 40;
  const marks = (call: ToolCall, cls: string) => {
    const pts = pointsOf(call);
    return (
      <g className={cls}>
        {pts.map(([x, y]: Point, i) => (
          <circle key={i} cx={x} cy={y} r={r} />
        ))}
        {pts.length === 2 && <line x1={pts[0]![0]} y1={pts[0]![1]} x2={pts[1]![0]} y2={pts[1]![1]} />}
      </g>
    );
  };
  return (
    <svg className="action-thumb" viewBox={`0 0 ${width} ${height}`} role="img" aria-label="screenshot with the model's and the corrected action">
      <image href={screenshotUrl(sha256)} width={width} height={height} />
      {box && <rect className="thumb-box" x={box[0]} y={box[1]} width={box[2] - box[0]} height={box[3] - box[1]} />}
      {marks(original, "thumb-original")}
      {marks(corrected, "thumb-corrected")}
    </svg>
  );
}
