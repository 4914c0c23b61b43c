// Preloaded into a command the bench times (`node --import ./bench/heap-probe.mjs scripts/studio.mjs ...`):
// samples the JS heap every 20 ms and, as the process exits, writes { heapPeakMB, heapLimitMB, maxRssMB } to
// the file named by BENCH_HEAP_OUT. Plain JavaScript and no imports beyond node's own, so it adds next to
// nothing to the start it is timing.
import { writeFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";

const out = process.env.BENCH_HEAP_OUT;
if (out) {
  let peak = 0;
  const sample = () => (peak = Math.max(peak, getHeapStatistics().used_heap_size));
  setInterval(sample, 20).unref();
  process.on("exit", () => {
    sample();
    const mb = (bytes) => Math.round(bytes / 1024 ** 2);
    writeFileSync(
      out,
      JSON.stringify({
        heapPeakMB: mb(peak),
        heapLimitMB: mb(getHeapStatistics().heap_size_limit),
        maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      }),
    );
  });
}
