import { IMPORT_PROBLEM_WORDS, type ImportProblemCode } from "@/lib/domain/problems";
import type { Catalogue } from "./types";

// What can be wrong with imported data (lib/domain/problems.ts codes), as the import page lists it.
// The English words are the parsers' own (the CLI prints them); parameters are data, shown as written.
const en = Object.fromEntries(Object.entries(IMPORT_PROBLEM_WORDS).map(([code, words]) => [`importProblem.${code}`, words])) as {
  [K in ImportProblemCode as `importProblem.${K}`]: (typeof IMPORT_PROBLEM_WORDS)[K];
};

const zh: Catalogue<typeof en> = {
  "importProblem.noToolCall": "未找到 <tool_call>（或 JSON 格式的 <action>）",
  "importProblem.noThink": "未找到 <think>",
  "importProblem.missing": "缺失",
  "importProblem.noAction": "缺失（没有动作，回复中也没有 <tool_call>）",
  "importProblem.notPoint": "不是坐标点 [x, y]：{value}",
  "importProblem.notNonNegative": "必须是非负数，实际为 {value}",
  "importProblem.notStatus": "必须是 success 或 failure，实际为 {value}",
  "importProblem.notButton": "必须是 {allowed} 之一，实际为 {value}",
  "importProblem.notDirection": "必须是 up、down、left 或 right 之一，实际为 {value}",
  "importProblem.scrollNeedsSize": "只给方向的滚动需要知道截图尺寸",
  "importProblem.notJson": "不是有效的 JSON：{value}",
  "importProblem.notObject": "必须是对象，实际为 {value}",
  "importProblem.unknownTool": "未知工具“{name}”，应为“mobile_use”",
  "importProblem.unknownAction": "未知动作“{action}”",
  "importProblem.wrongType": "类型应为 {expected}",
  "importProblem.empty": "为空",
  "importProblem.tooSmall": "过小（至少 {minimum}）",
  "importProblem.tooBig": "过大（至多 {maximum}）",
  "importProblem.notAllowed": "必须是 {allowed} 之一",
  "importProblem.invalid": "无效：{detail}",
  "importProblem.notBox": "不是矩形框 [x1, y1, x2, y2]：{detail}",
  "importProblem.offScreen": "{box} 位于 {width}x{height} 截图之外",
  "importProblem.frameOriginal": "工作室格式始终使用原图像素坐标；请用 --frame original 导入",
  "importProblem.coordsRel1000": "该行声明使用“qwen3-rel1000”坐标；请用 --frame rel1000 导入",
  "importProblem.coordsAbs": "该行声明使用“qwen25-abs”坐标；导入时请不要加 --frame rel1000",
  "importProblem.coordsUnknown": "该行声明使用 {declared} 坐标；工作室只读取 qwen25-abs 和 qwen3-rel1000",
  "importProblem.cutPastEnd": "截断点 {cut} 超出了最后一步（{last}）",
  "importProblem.screenshotMissing": "找不到截图文件：{file}",
  "importProblem.screenshotUnreadable": "截图 {file} 无法读取：{detail}",
  "importProblem.screenshotUndecodable": "截图 {file} 无法解码为图像：{detail}",
  "importProblem.screenshotFormat": "截图 {file} 是 {format} 图像；应为 PNG、JPEG 或 WebP",
  "importProblem.screenshotTooLarge": "截图 {file} 声明为 {width}x{height} 像素；每边至多 {side}、总计至多 {pixels} 像素",
  "importProblem.lineTooLong": "该行长 {bytes} 字节；每条轨迹至多读取 {max} MB",
  "importProblem.brokenJson": "JSON 格式损坏：{detail}",
  "importProblem.tooDeep": "JSON 嵌套超过 {depth} 层；一条轨迹约需 10 层",
  "importProblem.emptyFile": "文件中没有轨迹",
  "importProblem.interrupted": "导入被中断；未导入任何内容",
  "importProblem.other": "{detail}",
};

export const importProblems = { en, zh };
